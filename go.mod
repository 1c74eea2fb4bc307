module github.com/cdpmcp/cdpmcp

go 1.26.8

require (
	github.com/gorilla/websocket v1.5.3
	github.com/mafredri/cdp v0.35.0
)

require github.com/google/go-cmp v0.7.0 // indirect
