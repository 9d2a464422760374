package hidden

type Thing struct{}

func Hidden() {}
