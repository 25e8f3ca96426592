# The contract that instructions.sh and profile.sh serve, by KIND, and the target each kind's requests ask for:
#   static     GET /api/products?page_no=1&items_per_page=20, the bundled products page as a static fixture (the default)
#   templated  the same bytes rendered from a template that echoes page_no and items_per_page (TEMPLATED=1 too)
#   rules      the last of 20 scenarios whose `when` reads page_no (the first 19 do not hold for page_no=1) (RULES=1 too)
#   rules10    the 10th of 10 such scenarios
#   query      the fixture chosen by the query: page-{page_no}.json
#   path       GET /api/products/1, the fixture chosen by the path parameter: products/{id}.json
#   item       GET /api/items/1, an item of a resource seeded with the page's products
#   list       GET /api/items, the resource's whole list
#   bundled    the repository's Contracts/ and Fixtures/: GET /api/products?page_no=1&items_per_page=20, the bundled
#              products page (a fixture chosen by the query, templated, after three `when` rules on `category`)
#   proxied    a contract that serves nothing else: GET /api/products?page_no=1&items_per_page=20 goes to --proxy (the
#              caller starts the backend; kinds-load.sh serves the page's bytes from nginx)
# Every kind but item answers with about the page's bytes (item: one product of it).
# Usage: python3 bench-contract.py <work-folder> <fixture> [kind | 1 for templated] [1 for rules]; writes <work-folder>/Contracts,
# Fixtures, and <work-folder>/target (the request target).
import json, os, sys
work, fixture = sys.argv[1], sys.argv[2]
kind = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] not in ("", "1") else "static"
if len(sys.argv) > 3 and sys.argv[3] == "1": kind = "templated"
if len(sys.argv) > 4 and sys.argv[4] == "1": kind = "rules"
if kind == "bundled":  # the repository's own contracts and fixtures, and their products page
    import shutil
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    shutil.copytree(os.path.join(root, "Contracts"), work + "/Contracts")
    shutil.copytree(os.path.join(root, "Fixtures"), work + "/Fixtures")
    open(work + "/target", "w").write("/api/products?page_no=1&items_per_page=20")
    sys.exit(0)
if kind == "proxied":
    os.makedirs(work + "/Contracts"); os.makedirs(work + "/Fixtures")
    json.dump({"domain": "none", "endpoints": [{"id": "unused", "method": "GET", "path": "/unused",
               "scenarios": [{"name": "s", "status": 204, "expect": "success"}]}]}, open(work + "/Contracts/none.json", "w"))
    open(work + "/target", "w").write("/api/products?page_no=1&items_per_page=20")
    sys.exit(0)
os.makedirs(work + "/Contracts"); os.makedirs(work + "/Fixtures/products")
text = open(fixture).read()
target = "/api/products?page_no=1&items_per_page=20"
query = {"page_no": "integer", "items_per_page": "integer"}
scenario = {"name": "success", "status": 200, "body": "list.json", "expect": "success"}
endpoint = {"id": "productList", "method": "GET", "path": "/api/products", "request": {"query": query}}
contract = {"domain": "bench"}
if kind == "templated":
    text = text.replace('"page_no": 1,', '"page_no": {{query.page_no}},', 1).replace(
        '"items_per_page": 20,', '"items_per_page": {{query.items_per_page}},', 1).replace(
        '"limit": 20,', '"limit": {{query.items_per_page}},', 1)
    scenario["template"] = True
open(work + "/Fixtures/list.json", "w").write(text)
scenarios = [scenario]
if kind in ("rules", "rules10"):
    count = 20 if kind == "rules" else 10
    scenarios = [dict(scenario, name="rule%d" % i, when={"query": {"page_no": str(100 + i)}}) for i in range(1, count)]
    scenarios.append(dict(scenario, name="rule%d" % count, when={"query": {"page_no": "1"}}))
elif kind == "query":
    open(work + "/Fixtures/products/page-1.json", "w").write(text)
    scenarios = [dict(scenario, body="products/page-{page_no}.json")]
elif kind == "path":
    open(work + "/Fixtures/products/1.json", "w").write(text)
    endpoint = {"id": "productDetail", "method": "GET", "path": "/api/products/{id}",
                "request": {"pathParams": {"id": "integer"}}}
    scenarios = [dict(scenario, body="products/{id}.json")]
    target = "/api/products/1"
if kind in ("item", "list"):
    items = json.loads(text)["pages"]
    json.dump([dict(item, id=index + 1) for index, item in enumerate(items)], open(work + "/Fixtures/seed.json", "w"))
    def declared(value):
        return "boolean?" if isinstance(value, bool) else "integer?" if isinstance(value, int) else \
            "number?" if isinstance(value, float) else "string?"
    fields = {}
    for item in items:  # the widest type any item needs: an integer where one has 1.5 is a number
        for name, value in item.items():
            if name != "id" and fields.get(name) != "number?":
                fields[name] = "number?" if fields.get(name) == "integer?" and declared(value) == "number?" else \
                    fields.get(name, declared(value)) if declared(value) != "number?" else "number?"
    contract["resources"] = [{"id": "items", "path": "/api/items", "idType": "integer", "seed": "seed.json",
                              "fields": fields}]
    target = "/api/items/1" if kind == "item" else "/api/items"
else:
    contract["endpoints"] = [dict(endpoint, scenarios=scenarios)]
json.dump(contract, open(work + "/Contracts/bench.json", "w"))
open(work + "/target", "w").write(target)
