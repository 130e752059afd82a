package kruisecore

import "encoding/json"

// callTyped marshals in, calls fnID and unmarshals the result into out: the one body of every
// typed helper (cron, rollout, allocation, pub).
func callTyped(fnID string, in any, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	res, err := Call(fnID, body)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}
