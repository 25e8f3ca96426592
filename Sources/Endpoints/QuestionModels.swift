import Foundation

/// A question of the day, with both partners' answers once given.
public struct Question: Codable, Sendable, Hashable {
    public let index: Int
    public let title: String
    public let body: String
    public let myAnswer: String?
    public let partnerAnswer: String?
    public let createAt: Date
}

/// One page of the question history.
public struct QuestionPage: Codable, Sendable, Hashable {
    public let pageNo: Int
    public let totalPages: Int
    public let questions: [Question]
}

/// The number of the newest page of the question history.
public struct LatestPageNo: Codable, Sendable, Hashable {
    public let latestPageNo: Int
}
