// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

import "fmt"

func replacing() {
	defer func() { fmt.Printf("recovered(%s)", show(recover())) }()
	defer func() { fmt.Printf("recovered(%s)", show(recover())) }()
	defer func() { panic("second") }()
	panic("first")
}

func main() {
	replacing()
	fmt.Println(",after")
}

// show prints a recovered value as the C scenarios do ("nil" for none).
func show(r interface{}) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprint(r)
}
