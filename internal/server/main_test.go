package server

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	RunIfChild()
	goleak.VerifyTestMain(m)
}
