import MockProtocol
import Testing

struct ExpectedResultTests {
    @Test(arguments: [
        (200, ExpectedResult.success), (204, .success), (299, .success), (400, .requestErr), (401, .requestErr),
        (404, .requestErr), (499, .requestErr), (500, .serverErr), (503, .serverErr), (599, .serverErr),
        (100, .networkFail), (199, .networkFail), (301, .networkFail), (304, .networkFail), (600, .networkFail),
    ])
    func forStatus_FollowsTheStatusMapping(status: Int, expected: ExpectedResult) {
        #expect(ExpectedResult.forStatus(status) == expected)
    }

    @Test func possible_AllowsPathErr_OnlyFor2xx() {
        #expect(ExpectedResult.possible(forStatus: 200) == [.success, .pathErr])
        #expect(ExpectedResult.possible(forStatus: 404) == [.requestErr])
        #expect(ExpectedResult.possible(forStatus: 302) == [.networkFail])
    }

    @Test func rawValues_AreTheContractsSpelling() {
        #expect(ExpectedResult.allCases.map(\.rawValue) == ["success", "requestErr", "pathErr", "serverErr", "networkFail"])
    }
}

struct MockHeaderTests {
    @Test(arguments: ["X-Mock-Scenario", "x-mock-session", "X-MOCK-ANYTHING", "x-Mock-a"])
    func isMockField_IsTrue_ForTheMocksOwnFields(name: String) {
        #expect(MockHeader.isMockField(name))
    }

    @Test(arguments: ["X-Mock-", "X-Mocked-Scenario", "X-Request-Id", "Mock-Scenario", "", "X-Moc"])
    func isMockField_IsFalse_ForOthers(name: String) {
        #expect(!MockHeader.isMockField(name))
    }
}

struct AdminPathTests {
    @Test func paths_AreUnderThePrefix() {
        #expect(AdminPath.path("health") == "/__mock/health")
        #expect(AdminPath.contains("/__mock/journal?limit=1"))
        #expect(!AdminPath.contains("/__mocking/x"))
        #expect(!AdminPath.contains("/api/__mock/x"))
    }

    @Test func routes_AreEachListedOnce_WithTheirMethods() {
        #expect(Set(AdminPath.routes.map(\.path)).count == AdminPath.routes.count)
        #expect(AdminPath.routes.allSatisfy { !$0.methods.isEmpty })
    }
}

struct AdminPathSpellingTests {
    @Test func segmentAndPrefix_SpellTheSamePath() {
        #expect(AdminPath.prefix == "/" + AdminPath.segment + "/")
    }
}
