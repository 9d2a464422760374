package pub

func TestOnly() {}
