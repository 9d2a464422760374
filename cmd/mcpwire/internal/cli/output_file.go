package cli

import (
	"errors"
	"fmt"
	"os"
)

// checkOutputFile fails at once, before any server starts, when --output
// FILE cannot be written: a tool with side effects must not run only for
// its result to be lost. It opens the file as the write will (creating
// it, not truncating it) and removes it again if it did not exist.
func checkOutputFile(file string) error {
	if file == "" {
		return nil
	}
	_, statErr := os.Lstat(file)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return Usagef("--output: %s", err)
	}
	f.Close()
	if errors.Is(statErr, os.ErrNotExist) {
		if err := os.Remove(file); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
	}
	return nil
}
