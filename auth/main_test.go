package auth

import (
	"testing"

	"go.uber.org/goleak"
)

func leakCheck(m *testing.M) { goleak.VerifyTestMain(m) }

func TestMain(m *testing.M) { leakCheck(m) }
