"""A stand-in for the part of GitHub's REST API prepush comment uses: a pull request's comments
listed, created and updated, in memory. MODE: ok, fork (creating is refused with 403, as a fork's
read-only token is) or ratelimit (every request refused with 403 and x-ratelimit-remaining: 0).
GET /state returns the comments. Prints `port N` once listening on 127.0.0.1."""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

MODE = sys.argv[1]
TOKEN = "Bearer " + sys.argv[2]
comments = []


class Handler(BaseHTTPRequestHandler):
    def send(self, code, value, headers=None):
        data = json.dumps(value).encode()
        self.send_response(code)
        for key, text in (headers or {}).items():
            self.send_header(key, text)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def refused(self):
        if self.path == "/state":
            return False
        if MODE == "ratelimit":
            self.send(403, {"message": "API rate limit exceeded"}, {"x-ratelimit-remaining": "0"})
            return True
        if self.headers.get("Authorization") != TOKEN or self.headers.get("Accept") != "application/vnd.github+json":
            self.send(401, {"message": "Bad credentials"})
            return True
        return False

    def payload(self):
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

    def do_GET(self):
        if self.refused():
            return
        if self.path == "/state" or self.path.startswith("/repos/o/r/issues/7/comments"):
            return self.send(200, comments)
        self.send(404, {"message": "Not Found"})

    def do_POST(self):
        if self.refused():
            return
        if MODE == "fork":
            return self.send(403, {"message": "Resource not accessible by integration"})
        if self.path != "/repos/o/r/issues/7/comments":
            return self.send(404, {"message": "Not Found"})
        comment = {"id": 100 + len(comments), "body": self.payload()["body"]}
        comments.append(comment)
        self.send(201, comment)

    def do_PATCH(self):
        if self.refused():
            return
        wanted = int(self.path.rsplit("/", 1)[1])
        for comment in comments:
            if comment["id"] == wanted and self.path.startswith("/repos/o/r/issues/comments/"):
                comment["body"] = self.payload()["body"]
                return self.send(200, comment)
        self.send(404, {"message": "Not Found"})

    def log_message(self, *arguments):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
