module llgo-wasm/scenarios

go 1.19
