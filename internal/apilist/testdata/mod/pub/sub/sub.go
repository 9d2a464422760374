package sub

func F() {}
