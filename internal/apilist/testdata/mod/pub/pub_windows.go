package pub

func OnlyWindows() {}
