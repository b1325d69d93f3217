// whole: bench/whole_programs.c in Go, doing the same work and printing the same line (bench/run.py
// checks the outputs equal before it takes any figure):
//
//	whole sieve     the concurrent prime sieve, one filter goroutine per prime, 2,000 primes
//	whole pipeline  64 stages adding 1, 100,000 values over unbuffered channels, a summing sink
//	whole pool      32 workers over a buffered channel (capacity 64) of 200,000 jobs, a
//	                mutex-protected map of 1,000 keys, a WaitGroup
//	whole timers    100 goroutines x 100 selects between a channel nobody sends on and
//	                time.After(100 us): 10,000 timeouts, a WaitGroup
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

func sieve() bool {
	const primes = 2000
	ch := make(chan int)
	go func(out chan<- int) {
		for i := 2; ; i++ {
			out <- i
		}
	}(ch)
	prime := 0
	for n := 0; n < primes; n++ {
		prime = <-ch
		in, out := ch, make(chan int)
		go func(p int) {
			for {
				if i := <-in; i%p != 0 {
					out <- i
				}
			}
		}(prime)
		ch = out
	}
	fmt.Printf("sieve: %d primes, the last %d\n", primes, prime)
	return prime == 17389
}

func pipeline() bool {
	const stages, values = 64, 100000
	first := make(chan int64)
	in := first
	for i := 0; i < stages; i++ {
		out := make(chan int64)
		go func(in <-chan int64, out chan<- int64) {
			for v := range in {
				out <- v + 1
			}
			close(out)
		}(in, out)
		in = out
	}
	go func() {
		for i := int64(0); i < values; i++ {
			first <- i
		}
		close(first)
	}()
	var sum int64
	for v := range in {
		sum += v
	}
	fmt.Printf("pipeline: %d stages, %d values, sum %d\n", stages, values, sum)
	return sum == int64(values)*(values-1)/2+int64(stages)*values
}

func pool() bool {
	const workers, jobs, keys = 32, 200000, 1000
	queue := make(chan int, 64)
	var mu sync.Mutex
	counts := map[string]int64{}
	var wg sync.WaitGroup
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func() {
			defer wg.Done()
			for job := range queue {
				key := "k" + strconv.Itoa(job%keys)
				mu.Lock()
				counts[key] += int64(job)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < jobs; i++ {
		queue <- i
	}
	close(queue)
	wg.Wait()
	var sum int64
	for _, v := range counts {
		sum += v
	}
	fmt.Printf("pool: %d workers, %d jobs, %d keys, sum %d\n", workers, jobs, len(counts), sum)
	return len(counts) == keys && sum == int64(jobs)*(jobs-1)/2
}

func timers() bool {
	const goroutines, selects = 100, 100
	never := make(chan int)
	var mu sync.Mutex
	timeouts := 0
	var wg sync.WaitGroup
	wg.Add(goroutines)
	for g := 0; g < goroutines; g++ {
		go func() {
			defer wg.Done()
			for i := 0; i < selects; i++ {
				select {
				case <-never:
				case <-time.After(100 * time.Microsecond):
					mu.Lock()
					timeouts++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	fmt.Printf("timers: %d selects, %d timeouts\n", goroutines*selects, timeouts)
	return timeouts == goroutines*selects
}

func main() {
	programs := map[string]func() bool{"sieve": sieve, "pipeline": pipeline, "pool": pool, "timers": timers}
	if len(os.Args) != 2 || programs[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: whole sieve|pipeline|pool|timers")
		os.Exit(2)
	}
	if !programs[os.Args[1]]() {
		os.Exit(1)
	}
}
