#!/usr/bin/env python3
"""The dashboard (GET /__mock/) in a real browser: Debian's headless Chromium driven by Playwright,
against the real mock-server executable on scratch copies of Contracts/ and Fixtures/.

Usage: dashboard_test.py <mock-server binary> <repository root> [<screenshot folder>]
Run through Tests/Browser/run.sh, which installs what is missing and builds the executable.
Prints one line per check and ends with "N passed, N failed"; exits 1 if any check failed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
BINARY, ROOT = sys.argv[1], sys.argv[2]
SHOTS = sys.argv[3] if len(sys.argv) > 3 else None
results = []


def check(name):
    """Runs the decorated function as a named check, recording its outcome and time."""
    def run(body):
        started = time.monotonic()
        try:
            body()
            results.append((name, None))
            print("ok   %-62s %5.2f s" % (name, time.monotonic() - started), flush=True)
        except Exception as error:  # a failed check is reported, and the others still run
            results.append((name, error))
            print("FAIL %-62s %s" % (name, error), flush=True)
        return body
    return run


class Server:
    """mock-server on a free port, serving a scratch copy of the repository's contracts and fixtures."""

    def __init__(self, *arguments, contracts=None):
        self.folder = tempfile.mkdtemp(prefix="dashboard-test-")
        for name in ("Contracts", "Fixtures"):
            shutil.copytree(os.path.join(ROOT, name), os.path.join(self.folder, name))
        if contracts:  # another folder's contracts in place of the repository's
            shutil.rmtree(os.path.join(self.folder, "Contracts"))
            shutil.copytree(os.path.join(ROOT, contracts), os.path.join(self.folder, "Contracts"))
        self.process = subprocess.Popen(
            [BINARY, "--port", "0", "--log", "text", "--contracts", self.folder + "/Contracts",
             "--fixtures", self.folder + "/Fixtures"] + list(arguments),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        first = self.process.stdout.readline()
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", first)
        if not match:
            raise RuntimeError("unexpected first line: %r" % first)
        self.port = int(match.group(1))
        self.base = "http://127.0.0.1:%d" % self.port
        self.lines.append(first)
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 5
        while self.dashboard_link() is None and time.monotonic() < deadline:
            time.sleep(0.02)

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def dashboard_link(self):
        for line in self.lines:
            match = re.match(r"dashboard: (\S+)", line)
            if match:
                return match.group(1)
        return None

    def get(self, path, headers=None, method="GET", body=None):
        request = urllib.request.Request(self.base + path, headers=headers or {}, method=method, data=body)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def watch(page, problems):
    """Records console errors, uncaught exceptions, failed requests and error statuses of `page`."""
    page.on("console", lambda message: message.type == "error" and problems.append("console: " + message.text))
    page.on("pageerror", lambda error: problems.append("page error: %s" % error))
    page.on("requestfailed", lambda request: problems.append("request failed: %s %s" % (request.url, request.failure)))
    page.on("response", lambda response: response.status >= 400
            and problems.append("HTTP %d for %s" % (response.status, response.url)))


def wait_live(page):
    page.wait_for_selector('#live[data-state="live"]', timeout=5000)
    page.wait_for_selector('#domains section.domain', state="attached", timeout=5000)


def traffic(server):
    """Requests of every kind, so the journal has something to show."""
    bearer = {"Authorization": "Bearer secret-token-for-the-demo"}
    server.get("/healthChecker")
    server.get("/api/products?page_no=1&items_per_page=20", {"X-Mock-Session": "simulator-1"})
    server.get("/api/products/3")
    server.get("/api/products?page_no=1")  # breaks the contract: items_per_page is missing
    server.get("/api/v1/question/today", dict(bearer, **{"X-Mock-Scenario": "serverErr"}))
    server.get("/api/cart/items", dict(bearer, **{"X-Mock-Session": "simulator-1"}))
    server.get("/api/cart/items", dict(bearer, **{"X-Mock-Session": "simulator-1", "Content-Type": "application/json"}),
               method="POST", body=b'{"productId": 4, "quantity": 2}')
    try:
        server.get("/healthChecker", {"X-Mock-Scenario": "malformed"})
    except Exception:
        pass  # the fault: no HTTP response
    server.get("/nowhere")
    server.get("/api/products?page_no=1&items_per_page=20&category=food")  # picked by its when rule


def main():
    started = time.monotonic()
    server = Server()
    problems = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
        page = context.new_page()
        watch(page, problems)
        link = server.dashboard_link()

        @check("the banner prints the dashboard link")
        def _():
            assert link == server.base + "/__mock/", "banner: %r" % "".join(server.lines[:6])

        @check("the page loads with no console error and no failed request")
        def _():
            page.goto(link)
            wait_live(page)
            assert page.title() == "mock-server dashboard"
            page.wait_for_timeout(300)
            assert not problems, problems

        @check("a request made with urllib shows in the journal within 1 s")
        def _():
            session = "trace-" + uuid.uuid4().hex[:8]
            sent = time.monotonic()
            assert server.get("/healthChecker", {"X-Mock-Session": session})[0] == 200
            page.wait_for_selector('#rows tr:has(td:text-is("%s"))' % session, timeout=1000)
            took = time.monotonic() - sent
            assert took < 1.0, "took %.2f s" % took

        traffic(server)
        page.wait_for_selector('#rows tr:has(td:text-is("/nowhere"))', timeout=2000)

        @check("a request that broke its contract stands out")
        def _():
            row = page.locator('#rows tr:has(td:text-is("/api/products?page_no=1"))')
            assert row.get_attribute("class") == "violation", row.get_attribute("class")
            assert "contract broken" in row.inner_text()

        @check("clicking a row opens its request and response details")
        def _():
            page.locator('#rows tr:has(td:text-is("/api/products?page_no=1"))').click()
            details = page.locator("#details")
            details.wait_for(state="visible", timeout=2000)
            text = details.inner_text()
            for expected in ("Request headers", "Response headers", "query parameter items_per_page is missing",
                             "X-Mock-Endpoint", "productList"):
                assert expected in text, "%r not in details" % expected
            assert page.evaluate("document.activeElement.id") == "details-title"

        @check("a request a when rule picked says which rule")
        def _():
            page.locator('#rows tr:has(td:text-is("/api/products?page_no=1&items_per_page=20&category=food"))').click()
            text = page.locator("#details").inner_text()
            assert "food (chosen by its when rule, when[0])" in text, text

        @check("the journal keeps secrets redacted in the details")
        def _():
            page.locator('#rows tr:has(td:text-is("/api/cart/items")) >> nth=0').click()
            text = page.locator("#details").inner_text()
            assert "secret-token-for-the-demo" not in text and "Bearer <redacted" in text, text

        if SHOTS:
            page.locator('#rows tr:has(td:text-is("/api/products?page_no=1"))').click()
            page.screenshot(path=os.path.join(SHOTS, "dashboard-journal-light.png"))

        @check("the endpoint filter hides the rows of other endpoints")
        def _():
            page.locator("#details-close").click()
            page.select_option("#f-endpoint", "productDetail")
            visible = page.locator("#rows tr:visible")
            assert visible.count() >= 1
            for text in visible.all_inner_texts():
                assert "productDetail" in text, text
            assert page.locator('#rows tr:has(td:text-is("/healthChecker"))').first.is_hidden()
            page.select_option("#f-endpoint", "")
            page.select_option("#f-status", "5")
            for text in page.locator("#rows tr:visible").all_inner_texts():
                assert "\t5" in text or " 5" in text, text
            page.select_option("#f-status", "")
            page.fill("#f-text", "simulator-1")
            assert page.locator("#rows tr:visible").count() == 3, page.locator("#rows tr:visible").count()
            page.fill("#f-text", "")

        @check("clicking a scenario switches it: the next request plays it")
        def _():
            page.get_by_role("tab", name="Scenarios").click()
            button = page.locator('tr[data-endpoint="healthCheck"] button[data-scenario="serverErr"]')
            button.click()
            page.wait_for_selector('tr[data-endpoint="healthCheck"] button[data-scenario="serverErr"][aria-pressed="true"]',
                                   timeout=2000)
            assert server.get("/healthChecker")[0] == 503
            assert "set here" in page.locator('tr[data-endpoint="healthCheck"]').inner_text()

        @check("each scenario's when is shown beside its endpoint")
        def _():
            rules = page.locator('tr[data-endpoint="productList"] ul.rules').inner_text()
            assert 'food when {"query":{"category":"food"}}' in rules, rules
            title = page.locator('tr[data-endpoint="productList"] button[data-scenario="food"]').get_attribute("title")
            assert title == 'when {"query":{"category":"food"}}', title

        @check("a domain state is set from the page")
        def _():
            page.select_option('select[data-domain="questions"]', "answered")
            page.wait_for_selector('tr[data-endpoint="question"] button[data-scenario="answered"][aria-pressed="true"]',
                                   timeout=2000)

        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "dashboard-scenarios-light.png"))

        @check("reset puts the endpoint back to its default")
        def _():
            page.get_by_role("button", name="Reset healthCheck to its default scenario").click()
            page.wait_for_selector('tr[data-endpoint="healthCheck"] button[data-scenario="success"][aria-pressed="true"]',
                                   timeout=2000)
            assert server.get("/healthChecker")[0] == 200
            page.get_by_role("button", name="Reset every state").click()

        @check("sessions and a resource's items are shown")
        def _():
            page.get_by_role("tab", name="Sessions & resources").click()
            page.wait_for_selector('#sessions td:text-is("simulator-1")', timeout=3000)
            # The cart the session changed is part of it (one session table).
            page.wait_for_selector('#sessions tr:has(td:text-is("simulator-1")) td:text-is("cartItems = 3")', timeout=3000)
            page.select_option("#r-session", "simulator-1")
            page.wait_for_selector('section[data-resource="cartItems"]:has-text("3 items")', timeout=3000)

        @check("the tabs work from the keyboard")
        def _():
            page.get_by_role("tab", name="Sessions & resources").focus()
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.id") == "tab-server"
            assert page.locator("#panel-server").is_visible()
            page.keyboard.press("Home")
            assert page.evaluate("document.activeElement.id") == "tab-journal"

        @check("choosing a network-conditions profile lays it over the next request")
        def _():
            page.get_by_role("tab", name="Server").click()
            page.get_by_label("Profile").select_option("3g")
            # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the eval that polls it.
            page.wait_for_selector('#conditions-detail:has-text("750 Kbit/s")', timeout=3000)
            status, _ = server.get("/healthChecker")
            assert status == 200
            status, body = server.get("/__mock/journal?limit=1")
            assert json.loads(body)[-1].get("delayMs") == 100, body
            page.get_by_label("Profile").select_option("")
            page.wait_for_selector('#conditions-detail:has-text("No profile")', timeout=3000)

        @check("no console error or failed request in all that")
        def _():
            assert not problems, problems

        if SHOTS:
            dark = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
            night = dark.new_page()
            watch(night, problems)
            night.goto(link)
            wait_live(night)
            night.wait_for_selector('#rows tr:has(td:text-is("/nowhere"))', timeout=3000)
            night.locator('#rows tr:has(td:text-is("/api/cart/items")) >> nth=0').click()
            night.screenshot(path=os.path.join(SHOTS, "dashboard-journal-dark.png"))
            night.get_by_role("tab", name="Scenarios").click()
            night.wait_for_selector('tr[data-endpoint="healthCheck"]', timeout=3000)
            night.screenshot(path=os.path.join(SHOTS, "dashboard-scenarios-dark.png"))
            dark.close()

        @check("a frozen tab (paused in the debugger) while 10,000 requests go by catches up when resumed")
        def _():
            import http.client
            page.get_by_role("tab", name="Journal").click()
            rss = lambda: int(re.search(r"VmRSS:\s+(\d+)", open("/proc/%d/status" % server.process.pid).read()).group(1))
            before = rss()
            debugger = context.new_cdp_session(page)
            debugger.send("Debugger.enable")
            debugger.send("Debugger.pause")
            client = http.client.HTTPConnection("127.0.0.1", server.port)
            sent = time.monotonic()
            for index in range(10_000):
                client.request("GET", "/healthChecker", headers={"X-Mock-Session": "frozen-last"} if index == 9_999 else {})
                response = client.getresponse()
                response.read()
                assert response.status == 200
            took = time.monotonic() - sent
            during = rss()
            debugger.send("Debugger.resume")
            resumed = time.monotonic()
            page.wait_for_selector('#rows tr:has(td:text-is("frozen-last"))', timeout=10000)
            caught_up = time.monotonic() - resumed
            missed = page.evaluate("document.body.dataset.missed || '0'")
            print("     10,000 requests in %.1f s while the tab was paused; server RSS %.1f -> %.1f MiB; caught up %.1f s "
                  "after resuming; missed events counted by the page: %s"
                  % (took, before / 1024, during / 1024, caught_up, missed), flush=True)
            debugger.detach()
            assert not problems, problems

        @check("a contract broken on disk shows its problem on the page")
        def _():
            page.get_by_role("tab", name="Server").click()
            with open(os.path.join(server.folder, "Contracts", "health.json"), "r+") as contract:
                text = contract.read().replace('"status": 503', '"stauts": 503', 1)
                contract.seek(0)
                contract.write(text)
                contract.truncate()
            # The server's file watcher reloads it (no click needed); the page polls the health every 2 s.
            page.wait_for_selector("#reload-alert:visible", timeout=6000)
            alert = page.locator("#reload-alert").inner_text()
            assert "health.json" in alert and "stauts" in alert, alert
            assert "Refused" in page.locator("#reload-status").inner_text()
            assert not problems, problems

        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "dashboard-reload-problem-light.png"))

        @check("the reload button shows the problems too (a 422, the only error allowed)")
        def _():
            page.get_by_role("button", name="Reload the contracts").click()
            page.wait_for_selector("#toast.error", timeout=3000)
            assert "not reloaded" in page.locator("#toast").inner_text()
            unexpected = [p for p in problems if "422" not in p]
            assert not unexpected, unexpected

        context.close()
        server.stop()

        # --- with an admin token: the banner's link carries it in the fragment -----------------------
        token = "tok-" + uuid.uuid4().hex
        guarded = Server("--admin-token", token)
        problems.clear()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        watch(page, problems)

        @check("with --admin-token the banner's link carries it in the fragment")
        def _():
            assert guarded.dashboard_link() == guarded.base + "/__mock/#token=" + token, guarded.dashboard_link()
            assert guarded.get("/__mock/health")[0] == 401
            assert guarded.get("/__mock/")[0] == 200, "the page itself needs no token"

        @check("the fragment link works, leaves the address bar and reaches no log")
        def _():
            page.goto(guarded.dashboard_link())
            wait_live(page)
            assert "token" not in page.url, page.url
            assert page.evaluate("sessionStorage.getItem('mock-server-admin-token')") == token
            page.get_by_role("tab", name="Scenarios").click()
            page.locator('tr[data-endpoint="healthCheck"] button[data-scenario="serverErr"]').click()
            page.wait_for_selector('tr[data-endpoint="healthCheck"] button[data-scenario="serverErr"][aria-pressed="true"]',
                                   timeout=2000)
            assert guarded.get("/healthChecker")[0] == 503
            assert not problems, problems
            # A reload cuts the open event stream (net::ERR_ABORTED); the page then runs on the kept token.
            page.reload()
            wait_live(page)
            problems[:] = [p for p in problems if not ("/__mock/events" in p and "ERR_ABORTED" in p)]
            status, journal = guarded.get("/__mock/journal", {"X-Mock-Admin-Token": token})
            assert status == 200 and json.loads(journal), status
            assert token.encode() not in journal, "the token is in the journal"
            logged = "".join(guarded.lines[1:])
            assert "GET /__mock/" in logged or "GET /healthChecker" in logged
            assert token not in "".join(line for line in guarded.lines if not line.startswith("dashboard: ")), \
                "the token is in the access log"
            assert not problems, problems

        context.close()
        guarded.stop()

        # A backend whose product 1 now sends its price as a string, behind a server with --proxy.
        backend = Server()
        with open(os.path.join(backend.folder, "Fixtures/products/1.json"), "r+", encoding="utf-8") as fixture:
            product = json.load(fixture)
            product["price"] = "18,000"
            fixture.seek(0)
            fixture.truncate()
            json.dump(product, fixture, ensure_ascii=False)
        proxied = Server("--proxy", backend.base)
        problems.clear()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        watch(page, problems)

        @check("the drift check runs from the page and highlights the drifted field")
        def _():
            page.goto(proxied.dashboard_link())
            wait_live(page)
            page.get_by_role("tab", name="Server").click()
            page.wait_for_selector("#verify-report p.hint", timeout=2000)  # none has run yet
            page.locator("#verify").click()
            page.wait_for_selector(".verify-cases li.drift", timeout=10000)
            drifted = page.locator(".verify-cases li.drift").first
            assert "productDetail.success" in drifted.inner_text(), drifted.inner_text()
            assert drifted.locator("mark").inner_text() == "/price: fixture number, backend string"
            assert page.locator(".verify-cases li.verified").count() >= 3
            status, report = proxied.get("/__mock/verify")
            assert status == 200 and json.loads(report)["drifted"] == 1, report
            methods = {entry["method"] for entry in json.loads(backend.get("/__mock/journal")[1])}
            assert methods <= {"GET", "HEAD", "OPTIONS"}, methods
            assert not problems, problems

        context.close()
        proxied.stop()
        backend.stop()

        # Streams: Chromium's own WebSocket and EventSource against Tests/Streams/Contracts, and the Server tab's
        # open streams with its box to send a message.
        streams = Server(contracts="Tests/Streams/Contracts")
        problems.clear()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        watch(page, problems)

        @check("the browser's EventSource reads a contract's events, with their ids")
        def _():
            page.goto(streams.dashboard_link())
            wait_live(page)
            got = page.evaluate("""() => new Promise((resolve, reject) => {
                const source = new EventSource('/ticks?session=browser');
                const events = [];
                source.onmessage = (event) => {
                    events.push([event.data, event.lastEventId]);
                    if (events.length === 2) { source.close(); resolve(events); }
                };
                setTimeout(() => reject(new Error('events so far: ' + JSON.stringify(events))), 5000);
            })""")
            assert got == [["one", "1"], ["two", "2"]], got
            # Closing the EventSource aborts its request (the stream is kept open): that one is ours.
            page.wait_for_timeout(100)
            problems[:] = [problem for problem in problems if "/ticks?session=browser net::ERR_ABORTED" not in problem]
            assert not problems, problems

        @check("the browser's WebSocket gets the greeting, a reply by JSON pointer, and a push from the Server tab")
        def _():
            page.evaluate("""() => new Promise((resolve, reject) => {
                window.received = [];
                const socket = new WebSocket(`ws://${location.host}/chat?session=tab-1`, ['chat.v1']);
                window.socket = socket;
                socket.onmessage = (event) => {
                    window.received.push(event.data);
                    if (window.received.length === 1) socket.send(JSON.stringify({ type: 'ping' }));
                    if (window.received.length === 2) resolve();
                };
                socket.onerror = () => reject(new Error('the socket failed'));
                setTimeout(() => reject(new Error('received: ' + JSON.stringify(window.received))), 5000);
            })""")
            assert page.evaluate("window.received") == ['{"type":"welcome"}', '{"type":"pong"}']
            assert page.evaluate("window.socket.protocol") == "chat.v1"
            page.get_by_role("tab", name="Server").click()
            page.wait_for_selector('#streams td:text-is("tab-1")', timeout=3000)
            assert page.locator('#streams td:text-is("websocket")').count() == 1
            page.select_option("#stream-endpoint", "chat")
            page.select_option("#stream-session", "tab-1")
            page.fill("#stream-message", "hello from the dashboard")
            page.locator("#stream-send").click()
            # Polled from here: the page's CSP forbids the eval that wait_for_function uses.
            deadline = time.monotonic() + 3
            while page.evaluate("window.received.length") < 3 and time.monotonic() < deadline:
                page.wait_for_timeout(20)
            assert page.evaluate("window.received[2]") == "hello from the dashboard"
            page.get_by_role("tab", name="Journal").click()
            page.wait_for_selector('#rows span.message:text-is("→ text")', timeout=3000)
            page.wait_for_selector('#rows span.message:text-is("← text")', timeout=3000)
            assert not problems, problems

        context.close()
        browser.close()
        streams.stop()

    failed = [name for name, error in results if error]
    print("browser test: %.1f s" % (time.monotonic() - started))
    print("%d passed, %d failed" % (len(results) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
