"""Print the match-log JSON Schema: ``python -m schema > schema/match.schema.json``."""

import json

from twentynine.schema.log import match_json_schema

print(json.dumps(match_json_schema(), indent=2, ensure_ascii=False))
