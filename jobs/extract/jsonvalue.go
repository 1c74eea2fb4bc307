package extract

import "encoding/json"

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// toJSONValue turns Go values into what the validator expects (json.Number-free
// float64 maps and slices) by a JSON round trip.
func toJSONValue(v any) any {
	var out any
	_ = json.Unmarshal(mustJSON(v), &out)
	return out
}
