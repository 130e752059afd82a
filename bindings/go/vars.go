package kruisecore

// Var binds one variable of a resource expression: either a Kubernetes quantity (text such as
// "200m" or "1Gi") or a plain number. Build it with Quantity or Number.
type Var struct {
	Name     string
	Quantity string  // the quantity text, when IsNumber is false
	Number   float64 // the number, when IsNumber is true
	IsNumber bool
}

// Quantity binds name to a Kubernetes quantity given as text.
func Quantity(name, quantity string) Var { return Var{Name: name, Quantity: quantity} }

// Number binds name to a plain number.
func Number(name string, x float64) Var { return Var{Name: name, Number: x, IsNumber: true} }
