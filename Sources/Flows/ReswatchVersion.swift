/// reswatch's version, as every command and report states it.
package enum ReswatchVersion {
    package static let string = "0.2.0"
}
