"""The backend of proxy-memory.sh's uploads: answers each POST with the SHA-256 of the body it read (by
Content-Length, or chunked), reading at most RATE bytes a second (0: as fast as it can).
Usage: python3 upload_backend.py PORT [RATE]"""
import hashlib
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RATE = int(sys.argv[2]) if len(sys.argv) > 2 else 0


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def read(self, count, digest):
        started, done = time.monotonic(), 0
        while done < count:
            data = self.rfile.read(min(count - done, 65536))
            if not data:
                raise ConnectionError("the body broke off")
            digest.update(data)
            done += len(data)
            if RATE:
                ahead = done / RATE - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)

    def do_POST(self):
        digest = hashlib.sha256()
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while (size := int(self.rfile.readline().split(b";")[0], 16)) > 0:
                self.read(size, digest)
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b""):
                pass
        else:
            self.read(int(self.headers.get("Content-Length", 0)), digest)
        body = digest.hexdigest().encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Backend).serve_forever()
