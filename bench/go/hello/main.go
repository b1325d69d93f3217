// hello: bench/hello_goroutines.c in Go (the start-up and size rows of bench/run.py): main starts
// 10 goroutines, makes one round trip over an unbuffered channel with each, prints one line and
// exits.
package main

import (
	"fmt"
	"os"
)

const goroutines = 10

func main() {
	type pair struct{ request, reply chan int }
	pairs := make([]pair, goroutines)
	for i := range pairs {
		pairs[i] = pair{make(chan int), make(chan int)}
		go func(p pair) { p.reply <- <-p.request + 1 }(pairs[i])
	}
	sum := 0
	for i, p := range pairs {
		p.request <- i
		sum += <-p.reply
	}
	fmt.Printf("hello from %d goroutines: sum %d\n", goroutines, sum)
	if sum != goroutines*(goroutines+1)/2 {
		os.Exit(1)
	}
}
