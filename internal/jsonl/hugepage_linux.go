package jsonl

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on the common
// configurations (amd64, arm64 with 4 KiB pages). Advice for a range not
// aligned to the real size is harmless: the range is only marked.
const hugePageSize = 2 << 20

// adviseHugePages asks the kernel to back the 2 MiB-aligned interior of b
// with transparent huge pages (MADV_HUGEPAGE) before reads fill it.
//
// A large line's buffer is fresh memory more often than not: between two
// large results the garbage collector frees the last one and the runtime
// hands its pages back to the kernel, so the next buffer faults in again,
// 4 KiB at a time where transparent huge pages are only given on request
// (the usual "madvise" setting). On the bench's machine, a virtual machine
// where a fault is costly, that was most often 3,600 to 4,000 faults and
// about 100 ms of CPU for a 16 MB result that followed two other calls
// (bench/NOTES.md, the sixteenth round); with the advice, 90 to 300
// faults and 17 to 31 ms.
//
// The Go runtime no longer gives this advice for its heap in general (the
// stalls of direct compaction, and khugepaged filling scavenged ranges
// back in), so it is given here only for a buffer that reads are about
// to fill whole: a line's buffer of at least minHugeAdvice bytes, sized
// for a line as long as the last one. It is only advice: an error (a
// kernel without transparent huge pages) changes nothing.
func adviseHugePages(b []byte) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((base+hugePageSize-1)&^(hugePageSize-1) - base)
	hi := int((base+uintptr(len(b)))&^(hugePageSize-1) - base)
	if hi-lo < hugePageSize {
		return
	}
	_ = syscall.Madvise(b[lo:hi], syscall.MADV_HUGEPAGE)
}
