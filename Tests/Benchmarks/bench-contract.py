# The contract that instructions.sh and profile.sh serve: GET /api/products (two integer query parameters) answered
# with the bundled products page as a static fixture, or with TEMPLATED=1 from a template that renders the same bytes,
# or with RULES=1 by the last of 20 scenarios whose `when` reads page_no (the first 19 do not hold for page_no=1).
# Usage: python3 bench-contract.py <work-folder> <fixture> [1 for templated] [1 for rules]; writes <work-folder>/Contracts
# and Fixtures.
import json, os, sys
work, fixture = sys.argv[1], sys.argv[2]
templated = len(sys.argv) > 3 and sys.argv[3] == "1"
rules = len(sys.argv) > 4 and sys.argv[4] == "1"
os.makedirs(work + "/Contracts"); os.makedirs(work + "/Fixtures")
text = open(fixture).read()
if templated:
    text = text.replace('"page_no": 1,', '"page_no": {{query.page_no}},', 1).replace(
        '"items_per_page": 20,', '"items_per_page": {{query.items_per_page}},', 1).replace(
        '"limit": 20,', '"limit": {{query.items_per_page}},', 1)
open(work + "/Fixtures/list.json", "w").write(text)
scenario = {"name": "success", "status": 200, "body": "list.json", "expect": "success"}
if templated: scenario["template"] = True
scenarios = [scenario]
if rules:
    scenarios = [dict(scenario, name="rule%d" % i, when={"query": {"page_no": str(100 + i)}}) for i in range(1, 20)]
    scenarios.append(dict(scenario, name="rule20", when={"query": {"page_no": "1"}}))
json.dump({"domain": "bench", "endpoints": [{"id": "productList", "method": "GET", "path": "/api/products",
           "request": {"query": {"page_no": "integer", "items_per_page": "integer"}}, "scenarios": scenarios}]},
          open(work + "/Contracts/bench.json", "w"))
