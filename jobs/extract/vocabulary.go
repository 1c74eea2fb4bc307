package extract

// vocabulary lists, for a field's name (normalised), the schema.org property
// names pages state the same thing under: a schema asking for "currency" finds
// an offer's priceCurrency, "rating" an aggregate rating's ratingValue. They
// are looked up beside the name itself, in JSON-LD, microdata and labels.
var vocabulary = map[string][]string{
	"currency":  {"pricecurrency"},
	"rating":    {"ratingvalue"},
	"gtin":      {"gtin13", "gtin14", "gtin12", "gtin8"},
	"published": {"datepublished"},
	"modified":  {"datemodified"},
	"updated":   {"datemodified"},
	"phone":     {"telephone"},
	"zip":       {"postalcode"},
	"postcode":  {"postalcode"},
	"city":      {"addresslocality"},
	"country":   {"addresscountry"},
	"street":    {"streetaddress"},
}
