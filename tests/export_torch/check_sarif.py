# Validates a SARIF log against the SARIF 2.1.0 JSON schema (vendored in
# tests/data/sarif) and prints what the C++ tests check, one fact a line:
#   valid
#   tool NAME VERSION
#   rules ID,ID,...
#   invocation true|false
#   result RULEID LEVEL URI LINE LOGICAL  (- for what is absent)
#   message TEXT                          (newlines as \n)
#   snippet TEXT                          (when the result has one)
# Usage: /usr/bin/python3 check_sarif.py SCHEMA LOG. Exit 1 when invalid.
# Test-only: needs Debian's python3-jsonschema.
import json
import sys

import jsonschema

schema_path, log_path = sys.argv[1], sys.argv[2]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
with open(log_path, encoding="utf-8") as f:
    log = json.load(f)
jsonschema.Draft4Validator.check_schema(schema)
errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
for e in errors:
    print("invalid", "/".join(str(p) for p in e.absolute_path), e.message)
if errors:
    sys.exit(1)
print("valid")
run = log["runs"][0]
driver = run["tool"]["driver"]
print("tool", driver["name"].replace(" ", "_"), driver.get("version", "-"))
print("rules", ",".join(r["id"] for r in driver.get("rules", [])))
for inv in run.get("invocations", []):
    print("invocation", "true" if inv["executionSuccessful"] else "false")
for r in run.get("results", []):
    uri, line, logical, snippet = "-", "-", "-", None
    for loc in r.get("locations", []):
        phys = loc.get("physicalLocation")
        if phys:
            uri = phys["artifactLocation"]["uri"]
            line = str(phys["region"]["startLine"])
            snippet = phys["region"].get("snippet", {}).get("text")
        for ll in loc.get("logicalLocations", []):
            logical = ll["name"]
    # The rule a result names by index must be the one it names by id.
    if "ruleIndex" in r and driver["rules"][r["ruleIndex"]]["id"] != r["ruleId"]:
        print("invalid ruleIndex", r["ruleIndex"], "for", r["ruleId"])
        sys.exit(1)
    print("result", r["ruleId"], r["level"], uri, line, logical)
    print("message", r["message"]["text"].replace("\n", "\\n"))
    if snippet is not None:
        print("snippet", snippet)
