import Foundation

/// A question of the day, with both partners' answers once given.
public struct Question: Codable, Sendable, Hashable {
    /// The question's number.
    public let index: Int
    /// Its title.
    public let title: String
    /// Its text.
    public let body: String
    /// This user's answer, once given.
    public let myAnswer: String?
    /// The partner's answer, once given.
    public let partnerAnswer: String?
    /// When it was asked.
    public let createAt: Date
}

/// One page of the question history.
public struct QuestionPage: Codable, Sendable, Hashable {
    /// This page's number.
    public let pageNo: Int
    /// How many pages there are.
    public let totalPages: Int
    /// This page's questions.
    public let questions: [Question]
}

/// The number of the newest page of the question history.
public struct LatestPageNo: Codable, Sendable, Hashable {
    /// The newest page's number.
    public let latestPageNo: Int
}
