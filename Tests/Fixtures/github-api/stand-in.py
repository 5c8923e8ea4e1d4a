"""A stand-in for the part of GitHub's REST API prepush comment uses: a pull request's comments
listed (100 a page, with GitHub's Link header), created and updated, in memory, each with its
author. MODE: ok, fork (creating is refused with 403, as a fork's read-only token is), ratelimit
(every request refused with 403 and x-ratelimit-remaining: 0), or listen (answers 404 to
everything: a host the token must never reach, which only logs).
GET /user answers 403 as it does for a workflow's GITHUB_TOKEN; comments made with the token are
github-actions[bot]'s, as on GitHub. POST /seed adds a comment by any author ({"body", "login"}),
GET /state returns the comments, GET /log every request (method, path, Authorization, body).
Prints `port N` once listening on 127.0.0.1."""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

MODE = sys.argv[1]
TOKEN = "Bearer " + sys.argv[2]
comments = []
log = []


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

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode("utf-8", "replace") if length else ""

    def record(self, body):
        if self.path in ("/state", "/log", "/seed"):
            return
        log.append({"method": self.command, "path": self.path, "authorization": self.headers.get("Authorization"), "body": body})

    def refused(self):
        if self.path in ("/state", "/log", "/seed"):
            return False
        if MODE == "listen":
            self.send(404, {"message": "Not Found"})
            return True
        if MODE == "ratelimit":
            self.send(403, {"message": "API rate limit exceeded"}, {"x-ratelimit-remaining": "0"})
            return True
        if self.headers.get("Authorization") != TOKEN or self.headers.get("Accept") != "application/vnd.github+json":
            self.send(401, {"message": "Bad credentials"})
            return True
        return False

    def do_GET(self):
        self.record("")
        if self.refused():
            return
        if self.path == "/state":
            return self.send(200, comments)
        if self.path == "/log":
            return self.send(200, log)
        if self.path == "/user":
            return self.send(403, {"message": "Resource not accessible by integration"})
        if self.path.startswith("/repos/o/r/issues/7/comments"):
            query = dict(part.split("=", 1) for part in self.path.partition("?")[2].split("&") if "=" in part)
            page = int(query.get("page", "1"))
            chunk = comments[(page - 1) * 100:page * 100]
            headers = {}
            if page * 100 < len(comments):
                host = self.headers.get("Host")
                headers["Link"] = f'<http://{host}/repos/o/r/issues/7/comments?per_page=100&page={page + 1}>; rel="next"'
            return self.send(200, chunk, headers)
        self.send(404, {"message": "Not Found"})

    def do_POST(self):
        body = self.body()
        self.record(body)
        if self.path == "/seed":
            value = json.loads(body)
            comments.append({"id": 100 + len(comments), "body": value["body"], "user": {"login": value["login"]}})
            return self.send(201, comments[-1])
        if self.refused():
            return
        if MODE == "fork":
            return self.send(403, {"message": "Resource not accessible by integration"})
        if self.path != "/repos/o/r/issues/7/comments":
            return self.send(404, {"message": "Not Found"})
        comment = {"id": 100 + len(comments), "body": json.loads(body)["body"], "user": {"login": "github-actions[bot]"}}
        comments.append(comment)
        self.send(201, comment)

    def do_PATCH(self):
        body = self.body()
        self.record(body)
        if self.refused():
            return
        wanted = int(self.path.rsplit("/", 1)[1])
        for comment in comments:
            if comment["id"] == wanted and self.path.startswith("/repos/o/r/issues/comments/"):
                if comment["user"]["login"] != "github-actions[bot]":
                    return self.send(403, {"message": "Must have admin rights to Repository."})
                comment["body"] = json.loads(body)["body"]
                return self.send(200, comment)
        self.send(404, {"message": "Not Found"})

    def log_message(self, *arguments):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
