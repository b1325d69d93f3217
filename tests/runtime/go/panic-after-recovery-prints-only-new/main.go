// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

import "fmt"

func main() {
	defer func() { panic("P2") }()
	defer func() { fmt.Printf("recovered(%s)\n", show(recover())) }()
	panic("P1")
}

// show prints a recovered value as the C scenarios do ("nil" for none).
func show(r interface{}) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprint(r)
}
