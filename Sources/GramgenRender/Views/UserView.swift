/// A link to a user, with their avatar when they have one.
final class UserView {
    let handle: String
    let name: String
    let href: String
    let avatar: ImageView?
    let initial: String

    init(handle: String, name: String, href: String, avatar: ImageView?, initial: String) {
        self.handle = handle
        self.name = name
        self.href = href
        self.avatar = avatar
        self.initial = initial
    }
}
