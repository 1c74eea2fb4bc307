// Package agentloop runs a whole browser task inside the server (seeds 000 and
// 001): it asks a model for the next actions with seed 000's prompts, runs them
// from the action catalogue, and repeats until the model says done or a limit
// is reached. Models are behind the Model interface: an OpenAI-compatible
// endpoint here, the MCP client's own model (sampling) injected by tools.
// Every run leaves a record and an HTML report in its own directory.
package agentloop
