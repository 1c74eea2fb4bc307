package jobs

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/content"
	"github.com/cdpmcp/cdpmcp/jobs/extract"
)

// askModel asks the model for the schema fields the rules left missing,
// giving it the page's text; extract keeps only what that text states. A
// model that cannot be reached leaves the result as the rules made it, saying
// so.
func askModel(ctx context.Context, model agentloop.Model, page *cdpclient.Page, sch *extract.Schema, raw json.RawMessage, res *extract.Result) {
	fields := res.Askable(sch)
	if len(fields) == 0 {
		return
	}
	text, err := content.Get(ctx, page, "body", "text")
	if err != nil {
		res.Notes = append(res.Notes, "the page's text could not be read for the model: "+err.Error())
		return
	}
	system, user := extract.ModelPrompt(fields, page.URL(), text)
	// The page's text goes to the model as the tenant would read it.
	model = agentloop.Redacted(model, page.Context().Secrets())
	ans, err := model.Complete(ctx, agentloop.Prompt{System: system, User: user, MaxTokens: 1024})
	if err != nil {
		slog.Warn("extraction: the model", "err", err)
		res.Notes = append(res.Notes, "the model was not reached ("+err.Error()+"); the rules' result only")
		return
	}
	res.MergeModel(ans.Text, fields, text, raw)
}
