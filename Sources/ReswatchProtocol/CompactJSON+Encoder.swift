import Foundation

/// The `Encoder` behind `CompactJSON`: each value becomes a `Node`; objects and arrays are
/// reference storage, so a container keeps filling the node it made after it is handed out.
/// Coding paths are not tracked: no protocol type reads them, and an error thrown from a
/// value sends the whole line to `JSONEncoder`, whose error names the path.
extension CompactJSON {
    final class Encoder: Swift.Encoder {
        let state: State
        var node: Node?
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(_ state: State) { self.state = state }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object(let object) = node { return KeyedEncodingContainer(Keyed<Key>(object, state)) }
            if node != nil { state.unsupported = true }  // a container over a value already written
            let object = Object()
            node = .object(object)
            return KeyedEncodingContainer(Keyed<Key>(object, state))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array(let array) = node { return Unkeyed(array, state) }
            if node != nil { state.unsupported = true }
            let array = Array()
            node = .array(array)
            return Unkeyed(array, state)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Object
        let state: State
        var codingPath: [any CodingKey] { [] }

        init(_ object: Object, _ state: State) {
            self.object = object
            self.state = state
        }

        func put(_ node: Node, _ key: Key) { object.entries.append((key.stringValue, node)) }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(.float(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.uint(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { put(try Node.of(value, state), key) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = Object()
            put(.object(nested), key)
            return KeyedEncodingContainer(Keyed<NestedKey>(nested, state))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = Array()
            put(.array(nested), key)
            return Unkeyed(nested, state)
        }

        mutating func superEncoder() -> any Swift.Encoder { unsupported() }
        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { unsupported() }

        func unsupported() -> any Swift.Encoder {
            state.unsupported = true
            return Encoder(state)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Array
        let state: State
        var codingPath: [any CodingKey] { [] }
        var count: Int { array.items.count }

        init(_ array: Array, _ state: State) {
            self.array = array
            self.state = state
        }

        mutating func encodeNil() throws { array.items.append(.null) }
        mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
        mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
        mutating func encode(_ value: Double) throws { array.items.append(.double(value)) }
        mutating func encode(_ value: Float) throws { array.items.append(.float(value)) }
        mutating func encode(_ value: Int) throws { array.items.append(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { array.items.append(.int(value)) }
        mutating func encode(_ value: UInt64) throws { array.items.append(.uint(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { array.items.append(try Node.of(value, state)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = Object()
            array.items.append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(nested, state))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = Array()
            array.items.append(.array(nested))
            return Unkeyed(nested, state)
        }

        mutating func superEncoder() -> any Swift.Encoder {
            state.unsupported = true
            return Encoder(state)
        }
    }

    /// One value in place of the encoder's node (`Optional`, `RawRepresentable` enums, wrappers).
    struct Single: SingleValueEncodingContainer {
        let encoder: Encoder
        var codingPath: [any CodingKey] { [] }

        init(_ encoder: Encoder) { self.encoder = encoder }

        func set(_ node: Node) {
            if encoder.node != nil { encoder.state.unsupported = true }  // two values in one
            encoder.node = node
        }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.double(value)) }
        mutating func encode(_ value: Float) throws { set(.float(value)) }
        mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { set(.int(value)) }
        mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { set(.uint(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { set(try Node.of(value, encoder.state)) }
    }
}
