package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mcpwire/mcpwire/internal/peerschema"
)

// formError and fieldProblem are the shared form check's, which the CLI
// asks again on at the terminal; here the page gets a 400 naming each
// field, and the question keeps waiting.
type (
	formError    = peerschema.FormError
	fieldProblem = peerschema.FieldProblem
)

// checkForm checks an accepted form's content against its
// requestedSchema (peerschema.CheckForm): a misfit is a 400.
func checkForm(requestedSchema json.RawMessage, content map[string]any) error {
	err := peerschema.CheckForm(requestedSchema, content)
	if err == nil {
		return nil
	}
	return withStatus(http.StatusBadRequest, fmt.Errorf("the answer does not fit the form: %w", err))
}
