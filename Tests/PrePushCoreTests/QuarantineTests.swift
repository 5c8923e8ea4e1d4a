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
}
