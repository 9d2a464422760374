package mcp

// Kinds of CompletionRef.
const (
	RefPrompt   = "ref/prompt"
	RefResource = "ref/resource"
)

// CompletionRef says what is being completed: a prompt's argument (Type
// "ref/prompt", Name) or a resource template's variable (Type
// "ref/resource", URI, the template).
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// PromptRef refers to the prompt with the given name.
func PromptRef(name string) CompletionRef { return CompletionRef{Type: RefPrompt, Name: name} }

// ResourceRef refers to the resource template with the given URI template.
func ResourceRef(uriTemplate string) CompletionRef {
	return CompletionRef{Type: RefResource, URI: uriTemplate}
}

// CompletionArgument is the argument being typed and its current value.
type CompletionArgument struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CompletionResult holds the suggestions (at most 100 per answer).
type CompletionResult struct {
	Values []string `json:"values"`
	// Total is the number of matches overall, when the server says.
	Total   *int `json:"total,omitempty"`
	HasMore bool `json:"hasMore,omitempty"`
}

type completeParams struct {
	Ref      CompletionRef      `json:"ref"`
	Argument CompletionArgument `json:"argument"`
	Context  *completeContext   `json:"context,omitempty"`
}

type completeContext struct {
	Arguments map[string]string `json:"arguments"`
}

type completeResult struct {
	Completion *CompletionResult `json:"completion"`
}
