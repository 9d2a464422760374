package config

import "encoding/json"

// oauthVarNames returns the variables an "oauth" block names to read a
// token from at sign-in (workloadIdentity.tokenEnv, enterprise.idTokenEnv),
// as written. Such a token goes to the authorization server, so a user
// reviewing an untrusted file must see the name, as for a ${VAR}. A value
// that is no plain name (a ${...} reference, say) is left out: its
// reference is noted when the block is expanded.
func oauthVarNames(block json.RawMessage) []string {
	var doc struct {
		WorkloadIdentity struct {
			TokenEnv any `json:"tokenEnv"`
		} `json:"workloadIdentity"`
		Enterprise struct {
			IDTokenEnv any `json:"idTokenEnv"`
		} `json:"enterprise"`
	}
	if json.Unmarshal(block, &doc) != nil {
		return nil // a wrong shape is the sign-in's to report
	}
	var names []string
	for _, v := range []any{doc.WorkloadIdentity.TokenEnv, doc.Enterprise.IDTokenEnv} {
		if name, ok := v.(string); ok && validVarName(name) {
			names = append(names, name)
		}
	}
	return names
}
