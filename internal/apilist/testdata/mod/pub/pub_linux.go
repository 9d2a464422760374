package pub

func OnlyLinux() {}
