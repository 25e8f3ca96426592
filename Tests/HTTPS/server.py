"""A small HTTPS backend for Tests/HTTPS/run.sh: 127.0.0.1, a port the system picks (printed on the first
line), the certificate and key given as arguments. Paths: /items (200 JSON, sets a cookie), /missing (404 JSON),
/old (302 to /items), /basic (401 with a Basic challenge), /headers (200 JSON echoing the request's header fields and body)."""
import http.server
import json
import ssl
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, document, extra=()):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        if self.path == "/items":
            self.send_json(200, {"items": [{"id": 1, "name": "apple"}, {"id": 2, "name": "pear"}]},
                           [("Set-Cookie", "session=s3cr3t; Path=/")])
        elif self.path == "/missing":
            self.send_json(404, {"error": "not found"})
        elif self.path == "/old":
            self.send_json(302, {"moved": "/items"}, [("Location", "/items")])
        elif self.path == "/basic":
            self.send_json(401, {"error": "login"}, [("WWW-Authenticate", 'Basic realm="test"')])
        elif self.path.startswith("/headers"):
            fields = {name.lower(): value for name, value in self.headers.items()}
            self.send_json(200, {"method": self.command, "path": self.path, "headers": fields, "body": body})
        else:
            self.send_json(404, {"error": "no such path"})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = answer


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
