// bench_go: the goroutine benchmarks of bench/bench_runtime.c, written in Go, so that every
// figure of this project is a ratio against Go itself (Debian's Go 1.19 and 1.24) in the same run:
// natively with GOMAXPROCS=1 (one worker, like the single-worker runtime), as js/wasm under
// the same Node as the wasm benchmarks (tests/runners/run-go-js-wasm.cjs) and, with Go 1.24, as
// wasip1 under the same Node WASI runner as P1. bench/run.py builds and runs it.
//
// Usage (one benchmark per process, like bench_runtime):
//
//	bench_go yield  GOROUTINES DEPTH YIELDS_PER_GOROUTINE REPS
//	bench_go spawn  COUNT REPS
//	bench_go parked COUNT DEPTH
//	bench_go pingpong ROUNDS REPS      unbuffered channel round trip between two goroutines
//	bench_go buffered ITEMS REPS       one producer, one consumer, a channel of capacity 128
//	bench_go select   ROUNDS REPS      a select over 4 channels that are all ready
//	bench_go sleepers GOROUTINES SLEEPS   every goroutine sleeps 1 ms SLEEPS times
//
// Each repetition prints "RESULT {json}"; a broken invariant prints "FAIL: ..." and exits 1.
// The methodology follows bench_runtime.c: yield is ns per runtime.Gosched with every goroutine
// DEPTH frames deep, timed from the moment all goroutines run to the moment the last finishes;
// spawn is ns per serial goroutine lifecycle (go f(); Gosched()); parked is the growth of
// runtime.MemStats.Sys per goroutine blocked DEPTH frames deep (Go's stacks grow, so depth is
// what changes its cost, where bench_runtime's parameter is the reserved stack size).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func result(fields map[string]interface{}) {
	text, err := json.Marshal(fields)
	if err != nil {
		fail("cannot encode a result: %v", err)
	}
	fmt.Printf("RESULT %s\n", text)
}

func positive(text, name string) int {
	value, err := strconv.Atoi(text)
	if err != nil || value < 0 {
		fail("%s must be a non-negative integer, got %q", name, text)
	}
	return value
}

func nsPer(elapsed time.Duration, count int) float64 {
	return float64(elapsed.Nanoseconds()) / float64(count)
}

// ---- yield ------------------------------------------------------------------------------

var sink int64

// descendThenYield keeps one real frame per level (a local the compiler must keep, no inlining),
// so a switch at the bottom has DEPTH frames above it, as in bench_runtime.c.
//
//go:noinline
func descendThenYield(depth, acc int64, yields int) int64 {
	frameLocal := depth + acc
	if depth > 1 {
		return descendThenYield(depth-1, frameLocal, yields) + 1
	}
	for i := 0; i < yields; i++ {
		runtime.Gosched()
	}
	return frameLocal
}

func benchYield(goroutines, depth, yields, reps int) {
	if goroutines < 1 || depth < 1 {
		fail("yield: GOROUTINES and DEPTH must be at least 1")
	}
	for r := 0; r < reps; r++ {
		var started, finished int64
		var t0, t1 time.Time
		done := make(chan struct{})
		for i := 0; i < goroutines; i++ {
			go func() {
				if atomic.AddInt64(&started, 1) == int64(goroutines) {
					t0 = time.Now()
				}
				for atomic.LoadInt64(&started) < int64(goroutines) {
					runtime.Gosched()
				}
				atomic.AddInt64(&sink, descendThenYield(int64(depth), 0, yields))
				if atomic.AddInt64(&finished, 1) == int64(goroutines) {
					t1 = time.Now()
					close(done)
				}
			}()
		}
		<-done
		result(map[string]interface{}{"bench": "yield", "goroutines": goroutines, "depth": depth,
			"ns": nsPer(t1.Sub(t0), goroutines*yields)})
	}
}

// ---- spawn+exit -------------------------------------------------------------------------

func benchSpawn(count, reps int) {
	for r := 0; r < reps; r++ {
		var finished int64
		t0 := time.Now()
		for i := 0; i < count; i++ {
			go func() { atomic.AddInt64(&finished, 1) }()
			runtime.Gosched() // one worker: the new goroutine runs and exits, then main
		}
		// Go's scheduler takes from its global queue every 61st schedule, where Gosched put
		// main: then main resumes before the new goroutine ran (seen with Go 1.24 on wasip1,
		// 1 in 5,000). The stragglers finish here, inside the timed interval.
		for atomic.LoadInt64(&finished) != int64(count) {
			runtime.Gosched()
		}
		elapsed := time.Since(t0)
		result(map[string]interface{}{"bench": "spawn", "count": count, "ns": nsPer(elapsed, count)})
	}
}

// ---- parked goroutines' memory ----------------------------------------------------------

//go:noinline
func descendThenBlock(depth int64, release chan struct{}) int64 {
	frameLocal := depth
	if depth > 1 {
		return descendThenBlock(depth-1, release) + frameLocal
	}
	<-release
	return frameLocal
}

func systemBytes() uint64 {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return stats.Sys
}

func benchParked(count, depth int) {
	release := make(chan struct{})
	var blocked, finished int64
	runtime.GC()
	before := systemBytes()
	for i := 0; i < count; i++ {
		go func() {
			atomic.AddInt64(&blocked, 1)
			atomic.AddInt64(&sink, descendThenBlock(int64(depth), release))
			atomic.AddInt64(&finished, 1)
		}()
	}
	for atomic.LoadInt64(&blocked) < int64(count) {
		runtime.Gosched()
	}
	runtime.Gosched()
	after := systemBytes()
	close(release)
	for atomic.LoadInt64(&finished) < int64(count) {
		runtime.Gosched()
	}
	result(map[string]interface{}{"bench": "parked", "count": count, "depth": depth,
		"bytes_per_goroutine": float64(after-before) / float64(count),
		"memory_before": before, "memory_after": after})
}

// ---- channels (the Go anchors of issue 10's benchmarks) -----------------------------------

func benchPingPong(rounds, reps int) {
	for r := 0; r < reps; r++ {
		ping, pong := make(chan int), make(chan int)
		go func() {
			for v := range ping {
				pong <- v + 1
			}
			close(pong)
		}()
		t0 := time.Now()
		for i := 0; i < rounds; i++ {
			ping <- i
			if <-pong != i+1 {
				fail("pingpong: wrong reply")
			}
		}
		elapsed := time.Since(t0)
		close(ping)
		<-pong
		result(map[string]interface{}{"bench": "pingpong", "rounds": rounds, "ns": nsPer(elapsed, rounds)})
	}
}

func benchBuffered(items, reps int) {
	for r := 0; r < reps; r++ {
		channel := make(chan int, 128)
		total := make(chan int)
		go func() {
			sum := 0
			for v := range channel {
				sum += v
			}
			total <- sum
		}()
		t0 := time.Now()
		for i := 0; i < items; i++ {
			channel <- i
		}
		close(channel)
		sum := <-total
		elapsed := time.Since(t0)
		if sum != items*(items-1)/2 {
			fail("buffered: the consumer summed %d", sum)
		}
		result(map[string]interface{}{"bench": "buffered", "items": items, "ns": nsPer(elapsed, items)})
	}
}

// benchSelect: four channels of capacity 1, all full; each round selects one ready case and
// refills that channel, so all four are ready at every select. ns per round (select + refill).
func benchSelect(rounds, reps int) {
	for r := 0; r < reps; r++ {
		var channels [4]chan int
		for i := range channels {
			channels[i] = make(chan int, 1)
			channels[i] <- i
		}
		var taken [4]int
		t0 := time.Now()
		for i := 0; i < rounds; i++ {
			select {
			case v := <-channels[0]:
				taken[0]++
				channels[0] <- v
			case v := <-channels[1]:
				taken[1]++
				channels[1] <- v
			case v := <-channels[2]:
				taken[2]++
				channels[2] <- v
			case v := <-channels[3]:
				taken[3]++
				channels[3] <- v
			}
		}
		elapsed := time.Since(t0)
		for i, n := range taken {
			if n == 0 && rounds >= 1000 {
				fail("select: case %d never chosen in %d rounds (select must pick uniformly)", i, rounds)
			}
		}
		result(map[string]interface{}{"bench": "select", "rounds": rounds, "ns": nsPer(elapsed, rounds)})
	}
}

// benchSleepers: wall time for GOROUTINES goroutines that each sleep 1 ms SLEEPS times (the CPU
// time of the whole process is measured by bench/run.py from outside).
func benchSleepers(goroutines, sleeps int) {
	done := make(chan struct{})
	var finished int64
	t0 := time.Now()
	for i := 0; i < goroutines; i++ {
		go func() {
			for s := 0; s < sleeps; s++ {
				time.Sleep(time.Millisecond)
			}
			if atomic.AddInt64(&finished, 1) == int64(goroutines) {
				close(done)
			}
		}()
	}
	if goroutines > 0 {
		<-done
	}
	result(map[string]interface{}{"bench": "sleepers", "goroutines": goroutines, "sleeps": sleeps,
		"wall_ms": float64(time.Since(t0).Microseconds()) / 1000})
}

func main() {
	args := os.Args[1:]
	if len(args) >= 1 {
		n := make([]int, len(args)-1)
		for i, a := range args[1:] {
			n[i] = positive(a, fmt.Sprintf("argument %d", i+1))
		}
		switch {
		case args[0] == "yield" && len(n) == 4:
			benchYield(n[0], n[1], n[2], n[3])
			return
		case args[0] == "spawn" && len(n) == 2:
			benchSpawn(n[0], n[1])
			return
		case args[0] == "parked" && len(n) == 2:
			benchParked(n[0], n[1])
			return
		case args[0] == "pingpong" && len(n) == 2:
			benchPingPong(n[0], n[1])
			return
		case args[0] == "buffered" && len(n) == 2:
			benchBuffered(n[0], n[1])
			return
		case args[0] == "select" && len(n) == 2:
			benchSelect(n[0], n[1])
			return
		case args[0] == "sleepers" && len(n) == 2:
			benchSleepers(n[0], n[1])
			return
		}
	}
	fail("usage: bench_go yield G DEPTH YIELDS REPS | spawn COUNT REPS | parked COUNT DEPTH | " +
		"pingpong ROUNDS REPS | buffered ITEMS REPS | select ROUNDS REPS | sleepers G SLEEPS")
}
