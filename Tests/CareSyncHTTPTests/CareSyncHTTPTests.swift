import Testing
@testable import CareSyncHTTP
