module llgo-wasm/bench

go 1.19
