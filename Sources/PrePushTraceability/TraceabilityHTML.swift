#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The report people open: one self-contained HTML file (inline CSS, script and SVG, screenshots as
/// data URLs; nothing is fetched). Rows are plain HTML, so the report reads without script; the
/// script adds the status filter (also from the address: `report.html#status=failed`) and marks
/// `<body data-ready="true">` when it has run. Its Content-Security-Policy allows nothing but its
/// own inline style and script (by their SHA-256) and `data:` images: should text from a pull
/// request ever get past the escaping, no script, style, frame or fetch of its own would run.
/// Colours are classes, not `style=` attributes, which the policy would refuse.
enum TraceabilityHTML {
    /// Screenshots larger than this are linked, not embedded.
    static let maximumEmbeddedScreenshot = 4 * 1024 * 1024
    /// The duration chart shows this many of the slowest scenarios.
    static let chartLimit = 25

    static let colours: [ScenarioStatus: String] = [
        .passed: "#1a7f37", .failed: "#cf222e", .skipped: "#9a6700", .notRun: "#6e7781", .noTest: "#8250df", .manual: "#0969da",
    ]

    /// Escaped for HTML text and double-quoted attributes.
    static func escape(_ text: String) -> String {
        MarkupText.escape(text)
    }

    /// The catalog the page was made from; without one, that it lists the tests (no path: the page
    /// must not name a file that does not exist as its source).
    static func catalogLine(_ matrix: TraceabilityMatrix) -> String {
        matrix.catalogWasRead ? "Catalog <code>\(escape(matrix.catalogPath))</code>" : "No scenario catalog: the tests the results hold"
    }

    static func render(_ matrix: TraceabilityMatrix, gate: TraceabilityGate, generated: String?) -> String {
        let total = matrix.total
        let violations = gate.violations(in: matrix)
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <title>Traceability — \(total.passed)/\(total.total - total.manual) scenarios pass</title>
        <style>\(css)</style>
        </head>
        <body data-ready="false">
        <header>
        <h1>Traceability</h1>
        <p class="meta">\(catalogLine(matrix))\(matrix.stamp.text.map { " · \(escape($0))" } ?? "")\(generated.map { " · \(escape($0))" } ?? "")</p>
        </header>

        """
        html += "<section class=\"cards\">\n"
        for (label, value, status) in [("scenarios", total.total, nil), ("implemented", total.implemented, nil),
                                       ("passed", total.passed, ScenarioStatus.passed), ("failed", total.failed, .failed),
                                       ("skipped", total.skipped, .skipped), ("not run", total.notRun, .notRun),
                                       ("manual", total.manual, .manual), ("failing tests in no scenario", matrix.unmappedFailures.count, .failed)]
            as [(String, Int, ScenarioStatus?)] where value > 0 || ["scenarios", "implemented", "passed", "failed"].contains(label) {
            let style = status.map { " edge-\(className($0))" } ?? ""
            html += "<div class=\"card\(style)\"><span class=\"number\">\(value)</span> \(label)</div>\n"
        }
        html += "</section>\n"
        if violations.isEmpty {
            html += "<p class=\"gate ok\">Gate passed: \(TraceabilityMatrix.gateScope(gate)).</p>\n"
        } else {
            html += "<div class=\"gate refused\"><strong>\(matrix.refusedHeading):</strong><ul>\n"
            html += violations.map { "<li>\(escape($0))</li>\n" }.joined()
            html += "</ul></div>\n"
        }
        html += matrixTable(matrix)
        html += durationChart(matrix)
        html += scenarioTable(matrix)
        html += unmappedFailures(matrix)
        html += unmapped(matrix)
        html += "<script>\(script)</script>\n</body>\n</html>\n"
        return html
    }

    /// Story × priority, each cell `passed/implemented/automated` coloured by how it stands.
    static func matrixTable(_ matrix: TraceabilityMatrix) -> String {
        let priorities = matrix.priorities
        var html = "<h2>By story and priority</h2>\n<p class=\"hint\">passed / implemented / automated scenarios</p>\n"
        html += "<table class=\"matrix\"><thead><tr><th>Story</th>"
        html += priorities.map { "<th>\($0.rawValue)</th>" }.joined() + "<th>All</th></tr></thead><tbody>\n"
        func cell(_ rows: [ScenarioRow]) -> String {
            guard !rows.isEmpty else { return "<td class=\"empty\"></td>" }
            let count = TraceabilityMatrix.count(rows)
            let automated = count.total - count.manual
            let state: String
            if count.failed > 0 { state = "bad" } else if automated == 0 { state = "manual" } else if count.passed == automated { state = "good" } else if count.implemented < automated { state = "missing" } else { state = "partial" }
            let manual = count.manual > 0 ? "<span class=\"small\"> +\(count.manual) manual</span>" : ""
            return "<td class=\"\(state)\">\(count.passed)/\(count.implemented)/\(automated)\(manual)</td>"
        }
        for story in matrix.stories {
            let rows = matrix.rows(story: story)
            let title = matrix.storyTitles[story].map { " <span class=\"small\">\(escape($0))</span>" } ?? ""
            html += "<tr><th>\(escape(story))\(title)</th>"
            html += priorities.map { priority in cell(matrix.rows(story: story, priority: priority)) }.joined()
            html += cell(rows) + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// Horizontal bars of the slowest scenarios' durations, in SVG.
    static func durationChart(_ matrix: TraceabilityMatrix) -> String {
        // Sorted as (index, duration) pairs: rows are large values, costly to move in a sort.
        let durations = matrix.rows.indices.compactMap { index in matrix.rows[index].result.map { (index, $0.duration) } }
        let timed = durations.sorted { $0.1 > $1.1 }.prefix(chartLimit).map { matrix.rows[$0.0] }
        guard let longest = timed.first?.result?.duration, longest > 0 else { return "" }
        let barHeight = 18, gap = 6, labelWidth = 320, barWidth = 460
        let height = timed.count * (barHeight + gap)
        var svg = "<h2>Durations</h2>\n<p class=\"hint\">the \(timed.count) slowest scenarios with a result</p>\n"
        svg += "<svg class=\"chart\" role=\"img\" aria-label=\"Scenario durations\" width=\"\(labelWidth + barWidth + 70)\" height=\"\(height)\" viewBox=\"0 0 \(labelWidth + barWidth + 70) \(height)\">\n"
        for (index, row) in timed.enumerated() {
            let y = index * (barHeight + gap)
            let width = max(1, Int(Double(barWidth) * row.result!.duration / longest))
            svg += "<text x=\"\(labelWidth - 8)\" y=\"\(y + 13)\" text-anchor=\"end\">\(escape(row.scenario.testMethodName))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(width)\" height=\"\(barHeight)\" rx=\"3\" fill=\"\(colours[row.status]!)\"><title>\(escape(row.durationText))</title></rect>"
            svg += "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 13)\">\(escape(row.durationText))</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func scenarioTable(_ matrix: TraceabilityMatrix) -> String {
        var html = "<h2>Scenarios</h2>\n<nav class=\"filter\" aria-label=\"Filter by status\"><button data-status=\"all\" class=\"active\">all</button>"
        for status in ScenarioStatus.allCases {
            let count = matrix.rows.filter { $0.status == status }.count
            guard count > 0 else { continue }
            html += "<button data-status=\"\(status.rawValue)\">\(status.rawValue) (\(count))</button>"
        }
        html += "</nav>\n<p class=\"hint\" id=\"shown\">\(matrix.rows.count) of \(matrix.rows.count) scenarios</p>\n"
        let withHistory = matrix.histories.contains { !$0.isEmpty }
        html += "<table class=\"scenarios\"><thead><tr><th>Status</th><th>Priority</th><th>Story</th><th>Scenario</th><th>Test</th><th>Duration</th><th>Details</th>"
        html += (withHistory ? "<th>History</th>" : "") + "</tr></thead><tbody>\n"
        for (index, row) in matrix.rows.enumerated() {
            let status = row.status.rawValue
            html += "<tr class=\"scenario\" data-status=\"\(status)\" data-priority=\"\(row.scenario.priority.rawValue)\">"
            html += "<td><span class=\"badge fill-\(className(row.status))\">\(status)</span></td>"
            html += "<td>\(row.scenario.priority.rawValue)</td><td>\(escape(row.scenario.userStory))</td><td>\(escape(row.scenario.description))"
            for reference in row.entry.links.references {
                html += " " + (matrix.url(of: reference).map { "<a href=\"\(escape($0))\" rel=\"noopener noreferrer\">\(escape(reference))</a>" } ?? "<span class=\"small\">\(escape(reference))</span>")
            }
            if !row.scenario.requiredLaunchArguments.isEmpty {
                html += "<div class=\"small\">\(row.scenario.requiredLaunchArguments.map { "<code>\(escape($0))</code>" }.joined(separator: " "))</div>"
            }
            html += "</td><td>"
            for (name, place) in row.testNames {
                html += "<div><code class=\"id\">\(escape(name))</code>\(place.map { "<div class=\"small\">\(escape($0))</div>" } ?? "")</div>"
            }
            html += "</td><td class=\"number\">\(row.durationText)</td><td>"
            for detail in row.details(in: matrix) {
                html += row.status == .failed ? "<pre class=\"failure\">\(escape(detail))</pre>" : "<div class=\"warn\">\(escape(detail))</div>"
            }
            if let path = row.result?.screenshotPath { html += screenshot(path) }
            html += "</td>"
            if withHistory { html += "<td>" + strip(matrix.histories[index]) + "</td>" }
            html += "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// A scenario's earlier trees as coloured squares, oldest first, each titled with its tree.
    static func strip(_ marks: [HistoryMark]) -> String {
        var html = "<span class=\"strip\">"
        for mark in marks {
            let colour = mark.flaky ? "fill-flaky" : "fill-\(className(mark.status))"
            let title = (mark.tree.map { "tree \($0.prefix(7))" } ?? "tree not recorded") + ": " + (mark.flaky ? "flaky" : mark.status.rawValue)
            html += "<i class=\"\(colour)\" title=\"\(escape(title))\"></i>"
        }
        html += "</span>"
        if let since = TraceabilityMatrix.failingSince(marks) { html += "<div class=\"small\">\(escape(since))</div>" }
        return html
    }

    /// An embedded screenshot, or a link when it is missing or too large to embed.
    static func screenshot(_ path: String) -> String {
        let lower = path.lowercased()
        let type = lower.hasSuffix(".png") ? "image/png" : (lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")) ? "image/jpeg" : nil
        guard let type, let data = FileManager.default.contents(atPath: path), data.count <= maximumEmbeddedScreenshot else {
            return "<div class=\"small\">screenshot: <code>\(escape(path))</code></div>"
        }
        return "<details><summary>screenshot</summary><img class=\"shot\" alt=\"screenshot of the failure\" src=\"data:\(type);base64,\(data.base64EncodedString())\"></details>"
    }

    /// Failing tests no scenario names: a product owner reading the report sees the runner's failures.
    static func unmappedFailures(_ matrix: TraceabilityMatrix) -> String {
        guard !matrix.unmappedFailures.isEmpty else { return "" }
        var html = "<h2>Failing tests in no scenario (\(matrix.unmappedFailures.count))</h2>\n<ul class=\"unmapped\">\n"
        for result in matrix.unmappedFailures {
            html += "<li><span class=\"badge fill-failed\">\(escape(result.status.rawValue))</span> "
            html += "<code class=\"id\">\(escape(TraceabilityGate.name(of: result)))</code>"
            if let place = matrix.failurePlace(result) { html += " <span class=\"small\">\(escape(place))</span>" }
            if let message = result.failureMessage { html += "<pre class=\"failure\">\(escape(message))</pre>" }
            html += "</li>\n"
        }
        return html + "</ul>\n"
    }

    static func unmapped(_ matrix: TraceabilityMatrix) -> String {
        guard !matrix.unmappedTests.isEmpty else { return "" }
        // Collapsed: an app with hundreds of tests no scenario names would otherwise push the matrix
        // out of sight with pages of names.
        let count = matrix.unmappedTests.count
        var html = "<h2>Tests in no scenario (\(count))</h2>\n<details><summary>show the \(count) test\(count == 1 ? "" : "s")</summary>\n<ul class=\"unmapped\">\n"
        for test in matrix.unmappedTests {
            html += "<li><code class=\"id\">\(escape((test.typeName.map { "\($0)/" } ?? "") + test.name))</code> <span class=\"small\">\(escape(test.location.file)):\(test.location.line)</span></li>\n"
        }
        return html + "</ul>\n</details>\n"
    }

    /// A status as a class name (`notRun`): the case's name, which holds no space.
    static func className(_ status: ScenarioStatus) -> String {
        String(describing: status)
    }

    /// Allows the page's own inline `<style>` and `<script>`, each by the SHA-256 of its exact text,
    /// and `data:` images (embedded screenshots); nothing else loads, runs, submits or sets a base.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'sha256-\(SHA256.base64Digest(of: css))'; "
        + "script-src 'sha256-\(SHA256.base64Digest(of: script))'; img-src data:; base-uri 'none'; form-action 'none'"

    /// The page's style: the fixed sheet, then a fill and an edge class per status.
    static let css = baseCSS + "\n" + ScenarioStatus.allCases.map { status in
        ".fill-\(className(status)){background:\(colours[status]!)}.edge-\(className(status)){border-color:\(colours[status]!)}"
    }.joined() + ".fill-flaky{background:#bf8700}"

    static let baseCSS = """
    body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1f2328}
    h1{margin:0}h2{margin-top:32px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
    .meta,.hint,.small{color:#656d76;font-size:12px}
    .cards{display:flex;gap:12px;margin:16px 0;flex-wrap:wrap}
    .card{border:1px solid #d0d7de;border-left-width:5px;border-radius:6px;padding:8px 14px;min-width:110px}
    .card .number{font-size:22px;font-weight:600}
    .gate{padding:10px 14px;border-radius:6px}.gate.ok{background:#dafbe1}.gate.refused{background:#ffebe9}
    table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:5px 8px;text-align:left;vertical-align:top}
    thead th{background:#f6f8fa}
    .matrix td{text-align:center;font-weight:600;width:110px}
    .matrix .good{background:#dafbe1}.matrix .bad{background:#ffcecb}.matrix .missing{background:#fff1c2}
    .matrix .partial{background:#eaeef2}.matrix .manual{background:#ddf4ff}.matrix .empty{background:#fff}
    .badge{color:#fff;border-radius:10px;padding:1px 8px;font-size:12px;white-space:nowrap}
    td.number{text-align:right;white-space:nowrap}
    code.id{overflow-wrap:anywhere;word-break:break-word}.strip i{display:inline-block;width:9px;height:14px;margin-right:2px;border-radius:2px}.scenarios td{overflow-wrap:anywhere}
    pre.failure{white-space:pre-wrap;margin:0;color:#cf222e;font-size:12px}
    .warn{color:#9a6700}
    .filter button{border:1px solid #d0d7de;background:#f6f8fa;border-radius:6px;padding:3px 10px;margin:0 4px 8px 0;cursor:pointer}
    .filter button.active{background:#0969da;color:#fff;border-color:#0969da}
    .chart text{font-size:12px;fill:#1f2328}
    img.shot{max-width:360px;border:1px solid #d0d7de;margin-top:6px}
    """

    static let script = """
    (function () {
      var rows = Array.prototype.slice.call(document.querySelectorAll('tr.scenario'));
      var buttons = Array.prototype.slice.call(document.querySelectorAll('.filter button'));
      var shown = document.getElementById('shown');
      function apply(status) {
        var visible = 0;
        rows.forEach(function (row) {
          var show = status === 'all' || row.getAttribute('data-status') === status;
          row.hidden = !show;
          if (show) { visible += 1; }
        });
        buttons.forEach(function (button) { button.classList.toggle('active', button.getAttribute('data-status') === status); });
        shown.textContent = visible + ' of ' + rows.length + ' scenarios';
      }
      buttons.forEach(function (button) {
        button.addEventListener('click', function () {
          var status = button.getAttribute('data-status');
          history.replaceState(null, '', status === 'all' ? '#' : '#status=' + encodeURIComponent(status));
          apply(status);
        });
      });
      var match = /status=([^&]+)/.exec(location.hash);
      apply(match ? decodeURIComponent(match[1]) : 'all');
      document.body.setAttribute('data-ready', 'true');
    })();
    """
}
