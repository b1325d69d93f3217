// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

import "fmt"

func recoveringFunction() (result int) {
	result = 1
	defer func() { fmt.Printf("recovered(%s)", show(recover())) }()
	defer fmt.Print("d2,")
	panic("boom")
}

func main() {
	if recover() != nil {
		panic("recover outside a deferred call")
	}
	func() {
		defer fmt.Print(",outer-deferred")
		fmt.Printf(",returned %d", recoveringFunction())
	}()
	fmt.Println(",after")
}

// show prints a recovered value as the C scenarios do ("nil" for none).
func show(r interface{}) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprint(r)
}
