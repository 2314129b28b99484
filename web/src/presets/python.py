"""A tiny order service, used to show how code is split along its own structure."""

from dataclasses import dataclass, field
from datetime import date, timedelta


REFUND_DAYS = {"upi": 5, "card": 7, "netbanking": 5}


@dataclass
class Item:
    sku: str
    price: float
    quantity: int = 1

    def total(self) -> float:
        return self.price * self.quantity


@dataclass
class Order:
    order_id: str
    payment: str
    placed_on: date
    items: list[Item] = field(default_factory=list)

    def total(self) -> float:
        return sum(item.total() for item in self.items)

    def can_return(self, today: date) -> bool:
        """Items can be returned for 30 days after the order was placed."""
        return today - self.placed_on <= timedelta(days=30)

    def refund_channel(self) -> str:
        if self.payment == "cod":
            return "store credit"
        return f"original {self.payment} account"


class RefundError(Exception):
    """Raised when a refund cannot be made."""


def refund_eta(order: Order, received_on: date) -> date:
    """The day the money should arrive, counted from when the return reached us."""
    if order.payment == "cod":
        return received_on
    try:
        days = REFUND_DAYS[order.payment]
    except KeyError:
        raise RefundError(f"unknown payment method {order.payment!r}") from None
    return received_on + timedelta(days=days)


def describe(order: Order, today: date) -> str:
    lines = [f"Order {order.order_id}: {len(order.items)} items, {order.total():.2f} INR"]
    if order.can_return(today):
        lines.append(f"Returnable; the refund goes to the {order.refund_channel()}.")
    else:
        lines.append("The return window has closed.")
    return "\n".join(lines)


if __name__ == "__main__":
    order = Order("A-1042", "upi", date(2024, 3, 1), [Item("mug", 249.0, 2), Item("tea", 180.0)])
    print(describe(order, date(2024, 3, 12)))
    print("money expected on", refund_eta(order, date(2024, 3, 14)))
