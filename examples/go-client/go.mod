module llgo-wasm/examples/go-client

go 1.19
