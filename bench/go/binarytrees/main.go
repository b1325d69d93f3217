// binarytrees: bench/binary_trees.c in Go, the Benchmarks Game's binary-trees with a goroutine per
// depth, printing the same lines (bench/run.py checks the outputs equal before it takes any
// figure):
//
//	binarytrees N   a stretch tree of depth N+1; a long-lived tree of depth N; for each depth
//	                d = 4, 6, ..., N a goroutine allocating and checking 2^(N-d+4) trees of
//	                depth d; the outputs in depth order after a WaitGroup; the long-lived tree
//	                checked last.
//
// On stderr: "gc: <collections> collections, max pause <ns> ns" from runtime.ReadMemStats (the
// longest of the last 256 stop-the-world pauses, PauseNs; NumGC collections).
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
)

type node struct{ left, right *node }

func bottomUpTree(depth int) *node {
	if depth <= 0 {
		return &node{}
	}
	return &node{bottomUpTree(depth - 1), bottomUpTree(depth - 1)}
}

func (n *node) check() int {
	if n.left == nil {
		return 1
	}
	return 1 + n.left.check() + n.right.check()
}

const minDepth = 4

func main() {
	n := 10
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	maxDepth := n
	if minDepth+2 > n {
		maxDepth = minDepth + 2
	}
	stretch := maxDepth + 1
	fmt.Printf("stretch tree of depth %d\t check: %d\n", stretch, bottomUpTree(stretch).check())
	longLived := bottomUpTree(maxDepth)
	outputs := make([]string, maxDepth+1)
	var wg sync.WaitGroup
	for depth := minDepth; depth <= maxDepth; depth += 2 {
		wg.Add(1)
		go func(depth int) {
			iterations := 1 << uint(maxDepth-depth+minDepth)
			sum := 0
			for i := 1; i <= iterations; i++ {
				sum += bottomUpTree(depth).check()
			}
			outputs[depth] = fmt.Sprintf("%d\t trees of depth %d\t check: %d\n", iterations, depth, sum)
			wg.Done()
		}(depth)
	}
	wg.Wait()
	for depth := minDepth; depth <= maxDepth; depth += 2 {
		fmt.Print(outputs[depth])
	}
	fmt.Printf("long lived tree of depth %d\t check: %d\n", maxDepth, longLived.check())
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	var maxPause uint64
	for _, p := range stats.PauseNs {
		if p > maxPause {
			maxPause = p
		}
	}
	fmt.Fprintf(os.Stderr, "gc: %d collections, max pause %d ns\n", stats.NumGC, maxPause)
}
