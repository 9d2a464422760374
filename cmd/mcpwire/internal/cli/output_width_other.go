//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import (
	"os"
	"strconv"
)

// terminalWidth uses $COLUMNS where the terminal cannot be asked.
func terminalWidth(*os.File) int { return columnsEnv() }

// columnsEnv is $COLUMNS, or 0 when unset or not a positive number.
func columnsEnv() int {
	n, err := strconv.Atoi(os.Getenv("COLUMNS"))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
