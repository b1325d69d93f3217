// Command go-client resolves the five llgo-wasm variants through the driver's C API,
// the way LLGo (a Go program) calls it through cgo, prints them, and exits non-zero
// when any result differs from the variant table in docs/architecture.md. It finds an
// installed llgo-wasm through pkg-config (llgo-wasm.pc; PKG_CONFIG_PATH=<prefix>/lib/pkgconfig).
package main

/*
#cgo pkg-config: llgo-wasm
#include <stdlib.h>
#include "llgo_wasm.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"os"
	"unsafe"
)

// Driver owns a C driver handle (the loaded built-in target descriptors).
type Driver struct{ handle *C.llgo_wasm_driver }

// DriverError is an error reported by the C API, with its status.
type DriverError struct {
	Status  int
	Message string
}

func (e *DriverError) Error() string {
	return fmt.Sprintf("llgo-wasm (status %d): %s", e.Status, e.Message)
}

// takeString copies a library-allocated string and frees it.
func takeString(text *C.char) string {
	if text == nil {
		return ""
	}
	defer C.llgo_wasm_string_free(text)
	return C.GoString(text)
}

func NewDriver() (*Driver, error) {
	var handle *C.llgo_wasm_driver
	var message *C.char
	if status := C.llgo_wasm_driver_new(&handle, &message); status != C.LLGO_WASM_OK {
		return nil, &DriverError{int(status), takeString(message)}
	}
	return &Driver{handle}, nil
}

func (d *Driver) Close() { C.llgo_wasm_driver_free(d.handle) }

// Query is what the user said; unset fields are omitted.
type Query struct {
	Target string            `json:"target,omitempty"`
	GOOS   string            `json:"goos,omitempty"`
	GOARCH string            `json:"goarch,omitempty"`
	Env    map[string]string `json:"env,omitempty"`
}

// ResolvedTarget holds the fields of `llgo-wasm resolve --json` this client uses.
type ResolvedTarget struct {
	Name      string `json:"name"`
	Variant   string `json:"variant"`
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	Triple    string `json:"triple"`
	DataModel struct {
		Pointer int `json:"pointer"`
		Long    int `json:"long"`
		SSizeT  int `json:"ssize_t"`
	} `json:"data-model"`
	Capabilities struct {
		Asyncify string `json:"asyncify"`
		Memory64 bool   `json:"memory64"`
		EH       struct {
			Compile string `json:"compile"`
			Final   string `json:"final"`
		} `json:"eh"`
		Threads bool   `json:"threads"`
		Context struct {
			Default string `json:"default"`
		} `json:"context"`
	} `json:"capabilities"`
	Output struct {
		DefaultExtension string `json:"default_extension"`
	} `json:"output"`
	Implied struct {
		GOOS   bool `json:"goos"`
		GOARCH bool `json:"goarch"`
	} `json:"implied"`
}

func (d *Driver) Resolve(query Query) (*ResolvedTarget, error) {
	request, err := json.Marshal(query)
	if err != nil {
		return nil, err
	}
	cRequest := C.CString(string(request))
	defer C.free(unsafe.Pointer(cRequest))
	var result, message *C.char
	if status := C.llgo_wasm_resolve(d.handle, cRequest, &result, &message); status != C.LLGO_WASM_OK {
		return nil, &DriverError{int(status), takeString(message)}
	}
	var target ResolvedTarget
	if err := json.Unmarshal([]byte(takeString(result)), &target); err != nil {
		return nil, err
	}
	return &target, nil
}

type expectation struct {
	query    Query
	variant  string
	triple   string
	pointer  int
	asyncify string
	context  string
	ehFinal  string
	implied  bool
}

func main() {
	driver, err := NewDriver()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer driver.Close()

	wasm := map[string]string{"GOOS": "js", "GOARCH": "wasm"}
	wasi := map[string]string{"GOOS": "wasip1", "GOARCH": "wasm"}
	wasiThreads := map[string]string{"GOOS": "wasip1", "GOARCH": "wasm", "LLGO_WASI_THREADS": "1"}
	table := []expectation{
		{Query{Target: "wasm"}, "J32", "wasm32-unknown-emscripten", 4, "emscripten", "emscripten-fiber", "emscripten", true},
		{Query{Env: wasm}, "J64", "wasm64-unknown-emscripten", 8, "emscripten", "emscripten-fiber", "emscripten", false},
		{Query{Env: wasi}, "P1", "wasm32-unknown-wasip1", 4, "post-link", "asyncify", "exnref", false},
		{Query{Env: wasiThreads}, "P1T", "wasm32-wasip1-threads", 4, "none", "pthread", "exnref", false},
		{Query{Target: "host"}, "native", "", 0, "none", "pthread", "host", true},
	}
	failures := 0
	for _, want := range table {
		got, err := driver.Resolve(want.query)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", want.variant, err)
			failures++
			continue
		}
		fmt.Printf("%-7s %-15s %-6s/%-5s %-27s ptr/long/ssize_t %d/%d/%d asyncify=%-10s context=%-16s eh=%s/%s ext=%q\n",
			got.Variant, got.Name, got.GOOS, got.GOARCH, got.Triple, got.DataModel.Pointer, got.DataModel.Long,
			got.DataModel.SSizeT, got.Capabilities.Asyncify, got.Capabilities.Context.Default, got.Capabilities.EH.Compile,
			got.Capabilities.EH.Final, got.Output.DefaultExtension)
		ok := got.Variant == want.variant && got.Capabilities.Asyncify == want.asyncify &&
			got.Capabilities.Context.Default == want.context && got.Capabilities.EH.Final == want.ehFinal &&
			got.Implied.GOOS == want.implied && got.DataModel.SSizeT == got.DataModel.Pointer
		if want.triple != "" {
			ok = ok && got.Triple == want.triple && got.DataModel.Pointer == want.pointer && got.DataModel.Long == want.pointer
		}
		if !ok {
			fmt.Fprintf(os.Stderr, "%s: unexpected resolution %+v\n", want.variant, *got)
			failures++
		}
	}

	// Errors come back as text with a status; nothing panics across the boundary.
	_, err = driver.Resolve(Query{Target: "wasmm"})
	if e, isDriverError := err.(*DriverError); !isDriverError || e.Status != int(C.LLGO_WASM_BAD_REQUEST) {
		fmt.Fprintf(os.Stderr, "unknown target: want a bad-request error, got %v\n", err)
		failures++
	} else {
		fmt.Println("error case:", e.Message)
	}

	if failures > 0 {
		fmt.Fprintf(os.Stderr, "go-client: %d failure(s)\n", failures)
		os.Exit(1)
	}
	fmt.Printf("go-client: %d variants resolved\n", len(table))
}
