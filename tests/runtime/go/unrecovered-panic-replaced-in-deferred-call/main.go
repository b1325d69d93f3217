// Go's output for the scenario case of the same name (tests/runtime/scenarios.c).
package main

func main() {
	defer func() { panic("second") }()
	panic("first")
}
