package jsonl

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// A long line that follows one as long is read into a buffer sized for
// it, which is advised onto transparent huge pages before the reads fill
// it: the mapping that holds it is marked "hg" in /proc/self/smaps.
func TestSizedLineBufferIsAdvisedHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages on this kernel")
	}
	line := strings.Repeat("h", 6<<20)
	r := NewReader(strings.NewReader(line + "\n" + line + "\n"))
	var frame []byte
	for range 2 {
		f, err := r.ReadFrame()
		if err != nil || len(f) != len(line) {
			t.Fatalf("ReadFrame: %d bytes, %v", len(f), err)
		}
		frame = f
	}
	if cap(frame) < minHugeAdvice {
		t.Fatalf("the second line was not read into a sized buffer (cap %d)", cap(frame))
	}
	// 3 MiB in: inside the buffer's 2 MiB-aligned interior.
	addr := uintptr(unsafe.Pointer(&frame[3<<20]))
	flags, ok := vmFlags(t, addr)
	if !ok {
		t.Fatalf("no mapping holds %#x", addr)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the line's buffer is not advised onto huge pages: VmFlags %q", flags)
	}
}

// vmFlags returns the VmFlags of the mapping that holds addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rng, _, ok := strings.Cut(line, " "); ok && strings.Contains(rng, "-") && !strings.HasSuffix(rng, ":") {
			lo, hi, _ := strings.Cut(rng, "-")
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			continue
		}
		if in {
			if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
				return strings.TrimSpace(rest), true
			}
		}
	}
	return "", false
}
