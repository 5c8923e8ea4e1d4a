import PrePushCore
import Testing

@Suite struct QuarantineTests {
    @Test func anEntryNamesATestWholeByItsLastPartOrWithWildcards() {
        let quarantine = Quarantine([
            QuarantineEntry(pattern: "CheckoutTests.testRefund", reason: "refunds down"),
            QuarantineEntry(pattern: "addsOnTheSecondTry()", reason: "basket flaky"),
            QuarantineEntry(pattern: "SyncTests.*Remote*", reason: "network"),
        ])
        #expect(quarantine.reason(for: "CheckoutTests.testRefund") == "refunds down")
        #expect(quarantine.reason(for: "App.CheckoutTests.testRefund") == "refunds down")
        #expect(quarantine.reason(for: "CheckoutTests.testRefundLater") == nil)
        #expect(quarantine.reason(for: "BasketTests.addsOnTheSecondTry()") == "basket flaky")
        #expect(quarantine.reason(for: "addsOnTheSecondTry()") == "basket flaky")
        #expect(quarantine.reason(for: "SyncTests.testRemotePull") == "network")
        #expect(quarantine.reason(for: "SyncTests.testLocalPull") == nil)
        #expect(quarantine.reason(for: "OtherTests.testRemotePull") == nil)
    }

    /// One test, however it is spelled: the event stream's `Module.Suite.test()`, the console's
    /// `test()`, a user's `Suite/test` or `test`.
    @Test func anEntryMatchesEverySpellingOfItsTest() {
        for pattern in ["Shop.CacheTests.cacheWarmup()", "CacheTests/cacheWarmup()", "CacheTests/cacheWarmup", "cacheWarmup", "cacheWarmup()"] {
            let quarantine = Quarantine([QuarantineEntry(pattern: pattern, reason: "slow disk")])
            #expect(quarantine.reason(for: "Shop.CacheTests.cacheWarmup()") == "slow disk", "\(pattern)")
            #expect(quarantine.reason(for: "cacheWarmup()") == (pattern.contains("CacheTests") ? nil : "slow disk"), "\(pattern)")
            #expect(quarantine.reason(for: "Shop.CacheTests.cacheWarmupLater()") == nil, "\(pattern)")
        }
        #expect(Quarantine.matchesEveryTest("*") && Quarantine.matchesEveryTest("*.*") && Quarantine.matchesEveryTest("*/*()"))
        #expect(!Quarantine.matchesEveryTest("CacheTests.*") && !Quarantine.matchesEveryTest("cacheWarmup"))
    }
}
