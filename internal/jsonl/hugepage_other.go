//go:build !linux

package jsonl

// adviseHugePages gives no advice here.
func adviseHugePages([]byte) {}
