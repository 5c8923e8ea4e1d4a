import PrePushCore
import PrePushTestSupport
import PrePushTraceability
import Testing

@Suite struct CatalogTests {
    @Test func theFixtureCatalogReadsIntoTheDataModel() throws {
        let catalog = try ScenarioCatalog.load(path: Fixtures.own + "/traceability/scenarios.yml", displayPath: "scenarios.yml")
        #expect(catalog.entries.count == 7)
        #expect(catalog.stories.map(\.id) == ["US1", "US2"])
        #expect(catalog.stories.first?.title == "Sign in")
        let first = try #require(catalog.entries.first)
        #expect(first.scenario == TestScenario(userStory: "US1", priority: .p1, description: "Sign in with a valid email and password",
                                               testMethodName: "test_login_validCredentials",
                                               requiredLaunchArguments: ["--uitesting", "--reset-onboarding"]))
        #expect(first.location == PrePushCore.SourceLocation(file: "scenarios.yml", line: 6, column: 5))
        #expect(catalog.entries.last?.scenario.requiresManualIntervention == true)
    }

    /// Each kind of problem, with its exact text, all reported at once in file order.
    @Test func everyProblemIsReportedWithItsPlace() {
        let text = """
        scenarios:
          - story: US1
            priority: P0
            description: Sign in
            test: testLogin
          - story: " "
            priority: P1
            description: Sign out
            test: test_login_signOut
            launchArguments: [uitesting, --ok]
          - story: US2
            priority: P2
            descripton: typo
            test: test_login_signOut
          - story: US3
            priority: P3
            description: Duplicate
            test: test_login_signOut
            manual: maybe
        """
        do {
            _ = try ScenarioCatalog.decode(text, path: "s.yml")
            Issue.record("the catalog must be refused")
        } catch {
            #expect(error.description == """
            s.yml:3:15: error: unknown priority "P0"; expected P1, P2 or P3
                priority: P0
                          ^
            s.yml:5:11: error: test method "testLogin" does not match test_<feature>_<scenario> (for example test_login_validCredentials); set traceability.testNamePattern for another naming
                test: testLogin
                      ^
            s.yml:6:12: error: the user story is empty
              - story: " "
                       ^
            s.yml:10:23: error: launch argument "uitesting" must start with "--"
                launchArguments: [uitesting, --ok]
                                  ^
            s.yml:11:5: error: the scenario has no "description" (what the scenario checks)
              - story: US2
                ^
            s.yml:13:5: error: unknown key "descripton" in a scenario (did you mean "description"?)
                descripton: typo
                ^
            s.yml:14:11: error: test_login_signOut is named by two scenarios; the first is at line 9
                test: test_login_signOut
                      ^
            s.yml:18:11: error: test_login_signOut is named by two scenarios; the first is at line 9
                test: test_login_signOut
                      ^
            s.yml:19:13: error: "manual" is a boolean (true/false, yes/no or 1/0), found "maybe"
                manual: maybe
                        ^
            """)
            #expect(error.problems.count == 9)
        }
    }

    @Test func theShapeOfTheFileIsChecked() {
        func problems(_ text: String) -> String {
            do { _ = try ScenarioCatalog.decode(text, path: "s.yml"); return "" } catch { return error.description }
        }
        #expect(problems("").hasPrefix("s.yml:1:1: error: the catalog is empty; expected a mapping with \"scenarios\""))
        #expect(problems("- a\n").hasPrefix("s.yml:1:1: error: expected a mapping with \"scenarios\", found a list"))
        #expect(problems("scenario: []\n").hasPrefix("s.yml:1:1: error: unknown key \"scenario\" at the top of the catalog (did you mean \"scenarios\"?)"))
        #expect(problems("scenarios: {a: 1}\n").hasPrefix("s.yml:1:12: error: \"scenarios\" is a list of scenarios, found a mapping"))
        #expect(problems("scenarios:\n  - story: [US1]\n    priority: P1\n    description: d\n    test: test_a_b\n")
            .hasPrefix("s.yml:2:12: error: \"story\" is the user story, such as US1, found a list"))
        #expect(problems("scenarios: [\n").hasPrefix("s.yml:2:1: error:"), "a YAML syntax error has its place too")
    }

    @Test(arguments: [
        ("test_login_validCredentials", true), ("test_a_b", true), ("test_login_valid_credentials", true), ("test_tasks_2fa", true),
        ("testLogin", false), ("test_login", false), ("test__x", false), ("test_login_", false), ("test_1login_x", false),
        ("Test_login_x", false), ("test_log-in_x", false), ("test_login__x", false),
    ])
    func ruleFiveIsTheMethodNamePattern(_ name: String, _ valid: Bool) {
        #expect(TestScenario.isValidTestMethodName(name) == valid)
    }

    /// The catalog reads booleans as the configuration and the environment do (it took only
    /// true/false and yes/no, while `cache: 1` was accepted).
    @Test func manualTakesTheSameBooleansAsTheConfiguration() throws {
        for (word, expected) in [("1", true), ("YES", true), ("true", true), ("0", false), ("no", false), ("False", false)] {
            let catalog = try ScenarioCatalog.decode("""
            scenarios:
              - story: US1
                priority: P1
                description: Sign in
                test: test_login_signIn
                manual: \(word)
            """, path: "s.yml")
            #expect(catalog.entries.map(\.scenario.requiresManualIntervention) == [expected], "manual: \(word)")
        }
    }

    @Test func prioritiesSortP1First() {
        #expect([TestPriority.p3, .p1, .p2].sorted() == [.p1, .p2, .p3])
    }
}

/// A catalog written from the data model, with its own field names, reads as it is.
@Suite struct CatalogDataModelKeysTests {
    @Test func theDataModelsFieldNamesAreAccepted() throws {
        let catalog = try ScenarioCatalog.decode("""
        scenarios:
          - userStory: US1
            priority: P1
            description: Sign in with a valid email and password
            testMethodName: test_login_validCredentials
            requiredLaunchArguments: [--uitesting]
            requiresManualIntervention: false
          - userStory: US1
            priority: P2
            description: Sign out
            testMethodName: test_login_signOut
        """, path: "scenarios.yml")
        #expect(catalog.entries.map(\.scenario) == [
            TestScenario(userStory: "US1", priority: .p1, description: "Sign in with a valid email and password",
                         testMethodName: "test_login_validCredentials", requiredLaunchArguments: ["--uitesting"]),
            TestScenario(userStory: "US1", priority: .p2, description: "Sign out", testMethodName: "test_login_signOut"),
        ])
    }

    @Test func aCatalogKeepsToOneFormOfTheNames() {
        do {
            _ = try ScenarioCatalog.decode("""
            scenarios:
              - userStory: US1
                priority: P1
                description: Sign in
                testMethodName: test_login_ok
              - story: US1
                priority: P2
                description: Sign out
                test: test_login_signOut
            """, path: "scenarios.yml")
            Issue.record("expected problems")
        } catch {
            #expect(error.description.contains("scenarios.yml:6:5: error: \"story\" is a short name, and this catalog uses the data model's names (\"userStory\" at line 2); keep one form"), "\(error)")
            #expect(error.description.contains("scenarios.yml:9:5: error: \"test\" is a short name"), "\(error)")
        }
    }

    @Test func bothNamesOfOneFieldIsAnErrorAndMisspellingsGetASuggestion() {
        do {
            _ = try ScenarioCatalog.decode("""
            scenarios:
              - story: US1
                userStory: US2
                priority: P1
                description: Sign in
                testMethodNam: test_login_ok
            """, path: "scenarios.yml")
            Issue.record("expected problems")
        } catch {
            #expect(error.description.contains("scenarios.yml:3:5: error: \"userStory\" and \"story\" are the same field; keep one"), "\(error)")
            #expect(error.description.contains("scenarios.yml:6:5: error: unknown key \"testMethodNam\" in a scenario (did you mean \"testMethodName\"?)"), "\(error)")
        }
    }

    /// A scenario links several tests, a suite and a tag, and may allow a skip with its reason; the
    /// data model's one `testMethodName` is the first test it names.
    @Test func aScenarioLinksTestsSuitesAndTags() throws {
        let catalog = try ScenarioCatalog.decode("""
        scenarios:
          - story: US1
            priority: P1
            description: Sign-in edge cases
            tests: [test_login_lockout, LoginTests/test_login_expired]
            suite: [PasswordResetTests]
            tag: signIn
            allowSkip: needs a hardware key
            links: [QA-12, "https://example.com/t/9"]
          - story: US1
            priority: P2
            description: Smoke
            tag: [smoke, fast]

        """, path: "s.yml")
        let first = try #require(catalog.entries.first)
        #expect(first.links == ScenarioLinks(tests: ["test_login_lockout", "LoginTests/test_login_expired"], suites: ["PasswordResetTests"],
                                             tags: ["signIn"], allowSkip: "needs a hardware key", references: ["QA-12", "https://example.com/t/9"]))
        #expect(first.scenario.testMethodName == "test_login_lockout")
        #expect(catalog.entries[1].scenario.testMethodName == "tag smoke, tag fast")
        #expect(catalog.entries[1].links.description == "tag smoke, tag fast")
    }

    @Test func linksThatSayNothingAreProblems() {
        let text = """
        scenarios:
          - {story: US1, priority: P1, description: Nothing linked}
          - {story: US1, priority: P1, description: Empty list, tests: []}
          - {story: US1, priority: P1, description: Skip without why, test: test_a_b, allowSkip: true}
          - {story: US1, priority: P1, description: Twice, tests: [test_a_b]}
        """
        do {
            _ = try ScenarioCatalog.decode(text, path: "s.yml")
            Issue.record("the catalog must be refused")
        } catch {
            let lines = error.problems.map { "\($0.location.line):\($0.location.column): \($0.message)" }
            #expect(lines == [
                "2:5: the scenario has no \"test\" (the test method implementing it; or \"tests\", \"suite\" or \"tag\")",
                "3:64: \"tests\" is empty; expected a list of test names",
                "4:90: \"allowSkip\" is the reason a skipped test may stand for the scenario, found a boolean",
                "5:60: test_a_b is named by two scenarios; the first is at line 4",
            ], "\(lines)")
        }
    }
}
