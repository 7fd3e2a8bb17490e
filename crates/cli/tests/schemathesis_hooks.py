"""Schemathesis hooks of crates/cli/tests/schemathesis.rs (loaded through
`SCHEMATHESIS_HOOKS`).

The document is OpenAPI 3.1, whose JSON Schema `integer` admits a whole float (`2.0` is
the same number as `2`), and schemathesis sends such floats where a JSON body has an
integer. The server reads a body straight from its bytes and takes an integer only
written as one: `2.0` is refused like `2.5`, naming the field (400). No schema can say
how a number is spelled, so the contract is kept here: a whole float in a generated body
is written as the integer it spells before the request goes out.
"""

import schemathesis

# Past this magnitude a float no longer spells one integer.
EXACT = 2**53


def integers(value):
    if isinstance(value, float) and value.is_integer() and abs(value) <= EXACT:
        return int(value)
    if isinstance(value, list):
        return [integers(item) for item in value]
    if isinstance(value, dict):
        return {key: integers(item) for key, item in value.items()}
    return value


@schemathesis.hook
def map_body(context, body):
    return integers(body)
