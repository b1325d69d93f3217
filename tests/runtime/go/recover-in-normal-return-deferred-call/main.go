// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

import "fmt"

func helper() {
	defer func() { fmt.Printf("recovered(%s)\n", show(recover())) }()
}

func main() {
	defer func() {
		helper()
		fmt.Println("deferred call returned")
	}()
	panic("P1")
}

// show prints a recovered value as the C scenarios do ("nil" for none).
func show(r interface{}) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprint(r)
}
