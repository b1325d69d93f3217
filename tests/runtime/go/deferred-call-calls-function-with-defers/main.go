// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

import "fmt"

func cleanup() {
	defer fmt.Print("cleanup-deferred,")
	fmt.Print("cleanup,")
}

func main() {
	defer func() {
		cleanup()
		fmt.Println("after-cleanup")
	}()
	panic("P")
}
