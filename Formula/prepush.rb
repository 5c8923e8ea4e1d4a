# Homebrew formula, built from the source (there are no bottles yet):
#   brew tap <owner>/prepush <url of this repository>
#   brew install --HEAD <owner>/prepush/prepush
# Written for Homebrew on macOS and Linux; not yet run by this project (no Mac was available; see
# the README's "What has run where").
class Prepush < Formula
  desc "Pre-push hook and CI gate for Swift and iOS teams: tests, accessibility, traceability"
  homepage "https://github.com/prepush/prepush"
  head "https://github.com/prepush/prepush.git", branch: "main"

  depends_on "pkgconf" => :build
  depends_on "libgit2"
  depends_on "libyaml"

  on_macos do
    depends_on xcode: ["16.0", :build]
  end

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "prepush"
    bin.install ".build/release/prepush"
    # `prepush demo` copies the example app from here.
    (share/"prepush").install "Examples/AgenticTodo"
    generate_completions_from_executable(bin/"prepush", "--generate-completion-script")
  end

  test do
    assert_match version.to_s.sub(/^HEAD-.*/, ""), shell_output("#{bin}/prepush --version")
    system "git", "init", "--quiet", testpath/"repo"
    cd testpath/"repo" do
      (testpath/"repo/.prepush.yml").write "stages:\n  unit:\n    run: \"true\"\n"
      assert_match "unit.run", shell_output("#{bin}/prepush config")
      system bin/"prepush", "install"
      assert_predicate testpath/"repo/.git/hooks/pre-push", :exist?
    end
  end
end
